import { forwardRef, type KeyboardEvent, useImperativeHandle, useMemo, useRef, useState } from "react";
import { ConversationView, MarkdownText } from "../components/cell-view";
import { JsonEditor } from "../components/json-editor";
import { TextEditor } from "../components/text-editor";
import { CELL_MODES, type CellMode, jsonOfPlainText, plainTextOf } from "./cell-modes";
import { parseJson } from "./cells";
import { conversationOf, looksLikeMarkdown } from "./conversation";
import type { CellDraft } from "./row-draft";

export interface CellFieldProps {
  cell: CellDraft;
  dirty: boolean;
  readOnly: boolean;
  onEdit(text: string): void;
  /** Switches the cell's mode; answers what the switch did to the value, if anything. */
  onSwitch(mode: CellMode): string | undefined;
  onSave(): void;
  onCancel(): void;
}

/** The key that switches a cell between Text and JSON, wherever the focus is in the cell. */
export const SWITCH_KEY = "Alt+M";

const MODE_NAMES: Record<CellMode, string> = { text: "Text", json: "JSON" };

/**
 * One cell of the row editor: its name, how it is edited (Text or JSON, Alt+M switches), the editor,
 * and, for a conversation or a Markdown text, the value as it reads.
 */
export const CellField = forwardRef<{ focus(): void }, CellFieldProps>(function CellField(props, ref) {
  const { cell } = props;
  const editor = useRef<{ focus(): void }>(null);
  useImperativeHandle(ref, () => ({ focus: () => editor.current?.focus() }));
  const [note, setNote] = useState<string>();
  const id = `cell-${cell.column.identifier}`;
  const noteId = `${id}-note`;
  const name = cell.column.name;

  // Read once per change of the text: a pasted value may be megabytes.
  const plain = useMemo(
    () => (cell.mode === "text" ? plainTextOf(cell.text) : undefined),
    [cell.mode, cell.text],
  );
  const value = useMemo(() => {
    if (cell.mode === "text") return plain;
    const parsed = parseJson(cell.text);
    return parsed.ok ? parsed.value : undefined;
  }, [cell.mode, cell.text, plain]);
  const messages = conversationOf(value ?? undefined);
  const markdown = typeof value === "string" && looksLikeMarkdown(value);
  const [rendered, setRendered] = useState<boolean>(messages !== undefined);

  const switchTo = (mode: CellMode, focusEditor: boolean) => {
    setNote(props.onSwitch(mode));
    if (focusEditor) requestAnimationFrame(() => editor.current?.focus());
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (props.readOnly || !event.altKey || event.ctrlKey || event.metaKey || event.code !== "KeyM") return;
    event.preventDefault();
    const inEditor = !(event.target instanceof HTMLInputElement);
    switchTo(cell.mode === "text" ? "json" : "text", inEditor);
  };

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: Alt+M is heard wherever the focus is inside the cell; the radios are its keyboard way too
    <div className={props.dirty ? "cell-field dirty" : "cell-field"} onKeyDown={onKeyDown}>
      <div className="cell-field-head">
        <label htmlFor={id} title={`identifier ${cell.column.identifier}`}>
          {name}
          {props.dirty ? <span className="badge">changed</span> : null}
        </label>
        <div className="cell-field-tools">
          {messages || markdown ? (
            <button
              type="button"
              className="button button-quiet button-small"
              aria-pressed={rendered}
              onClick={() => setRendered(!rendered)}
            >
              {messages ? "Conversation" : "Markdown"}
            </button>
          ) : null}
          <div
            className="mode-switch"
            role="radiogroup"
            aria-label={`Edit ${name} as`}
            title={`Edit as text or as JSON (${SWITCH_KEY})`}
          >
            {CELL_MODES.map((mode) => (
              <label key={mode} className={cell.mode === mode ? "mode-option checked" : "mode-option"}>
                <input
                  type="radio"
                  name={`${id}-mode`}
                  value={mode}
                  checked={cell.mode === mode}
                  disabled={props.readOnly}
                  aria-keyshortcuts={SWITCH_KEY}
                  onChange={() => switchTo(mode, false)}
                />
                {MODE_NAMES[mode]}
              </label>
            ))}
          </div>
        </div>
      </div>
      {rendered && messages ? (
        <ConversationView messages={messages} label={`${name} as a conversation`} />
      ) : null}
      {cell.mode === "text" ? (
        <TextEditor
          ref={editor}
          id={id}
          label={name}
          value={plain ?? ""}
          placeholder={cell.original === undefined || cell.original === null ? "Empty: type text" : undefined}
          readOnly={props.readOnly}
          describedBy={note ? noteId : undefined}
          onChange={(text) => props.onEdit(jsonOfPlainText(text, cell.original))}
          onSave={props.onSave}
          onCancel={props.onCancel}
        />
      ) : (
        <JsonEditor
          ref={editor}
          id={id}
          label={name}
          value={cell.text}
          problem={cell.problem}
          readOnly={props.readOnly}
          onChange={props.onEdit}
          onSave={props.onSave}
          onCancel={props.onCancel}
        />
      )}
      {note ? (
        <p id={noteId} className="cell-note" role="status">
          {note}
        </p>
      ) : null}
      {rendered && markdown && typeof value === "string" ? (
        <MarkdownText text={value} label={`${name} as Markdown`} />
      ) : null}
    </div>
  );
});
