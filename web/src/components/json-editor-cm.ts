import { defaultKeymap, history, historyKeymap } from "@codemirror/commands";
import { json, jsonParseLinter } from "@codemirror/lang-json";
import { bracketMatching, defaultHighlightStyle, foldGutter, syntaxHighlighting } from "@codemirror/language";
import { linter, lintGutter } from "@codemirror/lint";
import { EditorSelection, EditorState } from "@codemirror/state";
import { EditorView, keymap, lineNumbers, placeholder } from "@codemirror/view";

export interface JsonEditorHandle {
  setValue(text: string): void;
  focus(): void;
  destroy(): void;
}

export interface JsonEditorOptions {
  value: string;
  label: string;
  readOnly: boolean;
  /** Where the caret (and selection) starts: the text area's, when the editor replaces one. */
  selection?: { anchor: number; head: number } | undefined;
  onChange(text: string): void;
  onSave(): void;
  onCancel(): void;
}

/** A selection inside a document of `length` characters. */
const within = ({ anchor, head }: { anchor: number; head: number }, length: number) =>
  EditorSelection.single(Math.min(anchor, length), Math.min(head, length));

/** A key binding that does `action` and tells CodeMirror the key was handled. */
const handled = (action: () => void) => () => {
  action();
  return true;
};

/** The page's CSP nonce (the gateway sets a fresh one per page): CodeMirror's stylesheet needs it. */
const cspNonce = (): string =>
  document.querySelector<HTMLMetaElement>('meta[property="csp-nonce"]')?.nonce ?? "";

/** CodeMirror 6 for one JSON cell: loaded only when an editor opens (it is most of the bundle). */
export function createJsonEditor(parent: HTMLElement, options: JsonEditorOptions): JsonEditorHandle {
  const view = new EditorView({
    parent,
    state: EditorState.create({
      doc: options.value,
      ...(options.selection ? { selection: within(options.selection, options.value.length) } : {}),
      extensions: [
        EditorView.cspNonce.of(cspNonce()),
        lineNumbers(),
        foldGutter(),
        history(),
        bracketMatching(),
        json(),
        syntaxHighlighting(defaultHighlightStyle, { fallback: true }),
        linter(jsonParseLinter(), { delay: 150 }),
        lintGutter(),
        placeholder("null"),
        EditorView.lineWrapping,
        EditorState.readOnly.of(options.readOnly),
        // Focusable to axe as it is to a person: the scroller around a long value has keyboard access.
        EditorView.contentAttributes.of({ "aria-label": options.label, tabindex: "0" }),
        keymap.of([
          { key: "Mod-s", preventDefault: true, run: handled(options.onSave) },
          { key: "Escape", run: handled(options.onCancel) },
          ...defaultKeymap,
          ...historyKeymap,
        ]),
        EditorView.updateListener.of((update) => {
          if (update.docChanged) options.onChange(update.state.doc.toString());
        }),
      ],
    }),
  });
  return {
    setValue: (text) => {
      if (text !== view.state.doc.toString()) {
        view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } });
      }
    },
    focus: () => view.focus(),
    destroy: () => view.destroy(),
  };
}
