import { forwardRef, useEffect, useImperativeHandle, useLayoutEffect, useRef, useState } from "react";
import type { JsonProblem } from "../rows/cells";
import { FieldProblem } from "./errors";
import type { JsonEditorHandle } from "./json-editor-cm";

export interface JsonEditorProps {
  id: string;
  label: string;
  value: string;
  problem: JsonProblem | undefined;
  readOnly?: boolean;
  onChange(text: string): void;
  onSave(): void;
  onCancel(): void;
}

/**
 * A JSON cell editor: a plain text area at once, CodeMirror as soon as it has loaded. The text is
 * the same either way, so nothing typed before it loads is lost.
 */
export const JsonEditor = forwardRef<{ focus(): void }, JsonEditorProps>(function JsonEditor(props, ref) {
  const host = useRef<HTMLDivElement>(null);
  const area = useRef<HTMLTextAreaElement>(null);
  const editor = useRef<JsonEditorHandle | undefined>(undefined);
  const latest = useRef(props);
  latest.current = props;
  const [codeMirror, setCodeMirror] = useState<typeof import("./json-editor-cm")>();
  const enhanced = codeMirror !== undefined;
  const textareaFocused = useRef(false);
  /** The text area's caret, carried into CodeMirror: typing goes on where it was when the editor loads. */
  const caret = useRef<{ anchor: number; head: number } | undefined>(undefined);
  const keepCaret = (area: HTMLTextAreaElement) => {
    const backward = area.selectionDirection === "backward";
    caret.current = {
      anchor: backward ? area.selectionEnd : area.selectionStart,
      head: backward ? area.selectionStart : area.selectionEnd,
    };
  };

  useImperativeHandle(ref, () => ({
    focus: () => (editor.current ? editor.current.focus() : area.current?.focus()),
  }));

  useEffect(() => {
    let cancelled = false;
    import("./json-editor-cm").then(
      (module) => {
        if (!cancelled) setCodeMirror(module);
      },
      () => undefined,
    );
    return () => {
      cancelled = true;
    };
  }, []);

  // Created once the text area is gone, so that the page never holds two editors of one cell, and in
  // the same task that removes it: a key pressed in between would reach no editor and be lost.
  useLayoutEffect(() => {
    if (!codeMirror || !host.current) return;
    const view = codeMirror.createJsonEditor(host.current, {
      value: latest.current.value,
      label: latest.current.label,
      readOnly: latest.current.readOnly ?? false,
      selection: caret.current,
      onChange: (text) => latest.current.onChange(text),
      onSave: () => latest.current.onSave(),
      onCancel: () => latest.current.onCancel(),
    });
    editor.current = view;
    if (textareaFocused.current) view.focus();
    return () => {
      view.destroy();
      editor.current = undefined;
    };
  }, [codeMirror]);

  useEffect(() => editor.current?.setValue(props.value), [props.value]);

  const problemId = `${props.id}-problem`;
  return (
    <div className={props.problem ? "json-editor has-problem" : "json-editor"}>
      <div ref={host} className="json-editor-host" hidden={!enhanced} />
      {enhanced ? null : (
        <textarea
          ref={area}
          id={props.id}
          aria-label={props.label}
          aria-invalid={props.problem !== undefined}
          aria-describedby={props.problem ? problemId : undefined}
          spellCheck={false}
          readOnly={props.readOnly}
          value={props.value}
          rows={Math.min(12, Math.max(2, props.value.split("\n").length))}
          onChange={(event) => {
            keepCaret(event.target);
            props.onChange(event.target.value);
          }}
          onSelect={(event) => keepCaret(event.currentTarget)}
          onFocus={() => {
            textareaFocused.current = true;
          }}
          onBlur={() => {
            textareaFocused.current = false;
          }}
          onKeyDown={(event) => {
            if ((event.metaKey || event.ctrlKey) && event.key.toLowerCase() === "s") {
              event.preventDefault();
              props.onSave();
            } else if (event.key === "Escape") props.onCancel();
          }}
        />
      )}
      <FieldProblem
        id={problemId}
        problem={
          props.problem &&
          `Not valid JSON at line ${props.problem.line}, column ${props.problem.column}: ${props.problem.message}`
        }
      />
    </div>
  );
});
