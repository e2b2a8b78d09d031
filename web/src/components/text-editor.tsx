import { forwardRef, useImperativeHandle, useRef } from "react";

export interface TextEditorProps {
  id: string;
  label: string;
  value: string;
  placeholder?: string | undefined;
  readOnly?: boolean;
  describedBy?: string | undefined;
  onChange(text: string): void;
  onSave(): void;
  onCancel(): void;
}

/**
 * A cell edited as plain text: what is typed is the text, line breaks included, with no quotes or
 * escapes. Ctrl+S (⌘S) saves and Escape cancels, as in the JSON editor.
 */
export const TextEditor = forwardRef<{ focus(): void }, TextEditorProps>(function TextEditor(props, ref) {
  const area = useRef<HTMLTextAreaElement>(null);
  useImperativeHandle(ref, () => ({ focus: () => area.current?.focus() }));
  return (
    <div className="text-editor">
      <textarea
        ref={area}
        id={props.id}
        aria-label={props.label}
        aria-describedby={props.describedBy}
        spellCheck
        readOnly={props.readOnly}
        placeholder={props.placeholder}
        value={props.value}
        rows={rowsFor(props.value)}
        onChange={(event) => props.onChange(event.target.value)}
        onKeyDown={(event) => {
          if ((event.metaKey || event.ctrlKey) && event.key.toLowerCase() === "s") {
            event.preventDefault();
            props.onSave();
          } else if (event.key === "Escape") props.onCancel();
        }}
      />
    </div>
  );
});

/** As many rows as the text has lines, from 2 to 14, counted without copying a text of megabytes. */
function rowsFor(text: string): number {
  let lines = 1;
  for (let at = text.indexOf("\n"); at >= 0 && lines < 13; at = text.indexOf("\n", at + 1)) lines++;
  return Math.min(14, Math.max(2, lines + 1));
}
