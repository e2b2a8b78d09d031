import { type FormEvent, type ReactNode, useEffect, useId, useRef } from "react";
import { ErrorMessage } from "./errors";

/**
 * A modal dialog on the platform's own `<dialog>`: focus moves in and is kept there, Esc closes it,
 * and the page behind is inert, as screen readers expect.
 */
export function Dialog({
  title,
  open,
  onClose,
  children,
  wide = false,
}: {
  title: string;
  open: boolean;
  onClose: () => void;
  children: ReactNode;
  wide?: boolean;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal?.();
    if (!open && dialog.open) dialog.close?.();
  }, [open]);
  return (
    <dialog
      ref={ref}
      className={wide ? "dialog dialog-wide" : "dialog"}
      aria-labelledby={titleId}
      onClose={onClose}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
    >
      {open ? (
        <>
          <h2 id={titleId}>{title}</h2>
          {children}
        </>
      ) : null}
    </dialog>
  );
}

/** "Delete X?" with the consequence spelled out; the destructive button says what it does. */
export function ConfirmDialog({
  title,
  open,
  body,
  error,
  confirmLabel,
  busy = false,
  onConfirm,
  onClose,
}: {
  title: string;
  open: boolean;
  body: ReactNode;
  /** Why the last try failed, shown under the body. */
  error?: unknown;
  confirmLabel: string;
  busy?: boolean;
  onConfirm: () => void;
  onClose: () => void;
}) {
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onConfirm();
  };
  return (
    <Dialog title={title} open={open} onClose={onClose}>
      <form onSubmit={submit}>
        <div className="dialog-body">
          {body}
          {error ? <ErrorMessage error={error} /> : null}
        </div>
        <FormActions
          submitLabel={busy ? "Working…" : confirmLabel}
          disabled={busy}
          danger
          onCancel={onClose}
        />
      </form>
    </Dialog>
  );
}

/**
 * A dialog form's end: why the last try failed, if it did, then Cancel and the submit button, which says
 * what it does (or that it is at it).
 */
export function FormActions({
  error,
  submitLabel,
  disabled,
  danger = false,
  onCancel,
}: {
  error?: unknown;
  submitLabel: string;
  disabled: boolean;
  /** The submit button destroys something. */
  danger?: boolean;
  onCancel(): void;
}) {
  return (
    <>
      {error ? <ErrorMessage error={error} /> : null}
      <div className="dialog-actions">
        <button type="button" className="button" onClick={onCancel}>
          Cancel
        </button>
        <button
          type="submit"
          className={danger ? "button button-danger" : "button button-primary"}
          disabled={disabled}
        >
          {submitLabel}
        </button>
      </div>
    </>
  );
}
