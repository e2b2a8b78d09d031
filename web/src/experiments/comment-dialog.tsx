import { type FormEvent, useId, useState } from "react";
import { Dialog, FormActions } from "../components/dialog";
import { PASS, RATING } from "./scoring-keys";

/** A human score with a comment: the verdict or the rating it goes with. */
export interface CommentedScore {
  name: string;
  value: boolean | number;
  comment: string;
}

const CHOICES = [
  { key: "pass", label: "Pass", name: PASS, value: true },
  { key: "fail", label: "Fail", name: PASS, value: false },
  ...[1, 2, 3, 4, 5].map((n) => ({ key: `rating-${n}`, label: `Rating ${n}`, name: RATING, value: n })),
] as const;

/**
 * `c` on a selected result: a comment, recorded with a pass, a fail or a rating (a comment belongs to
 * a score). It starts from the person's own verdict on the result, if there is one.
 */
export function CommentDialog({
  rowId,
  initial,
  busy,
  error,
  onSubmit,
  onClose,
}: {
  rowId: string | undefined;
  initial: { name: string; value: unknown; comment: string | null } | undefined;
  busy: boolean;
  error: unknown;
  onSubmit(score: CommentedScore): void;
  onClose(): void;
}) {
  const id = useId();
  const start =
    CHOICES.find((choice) => choice.name === initial?.name && choice.value === initial.value)?.key ?? "pass";
  const [choiceKey, setChoiceKey] = useState<string>(start);
  const [comment, setComment] = useState(initial?.comment ?? "");
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const choice = CHOICES.find((one) => one.key === choiceKey);
    if (choice && comment.trim())
      onSubmit({ name: choice.name, value: choice.value, comment: comment.trim() });
  };
  return (
    <Dialog title={`Comment on row ${rowId ?? ""}`} open={rowId !== undefined} onClose={onClose}>
      <form onSubmit={submit}>
        <label htmlFor={`${id}-comment`}>Comment</label>
        <textarea
          id={`${id}-comment`}
          rows={4}
          maxLength={2000}
          value={comment}
          autoFocus
          onChange={(event) => setComment(event.target.value)}
        />
        <label htmlFor={`${id}-score`}>With the score</label>
        <select id={`${id}-score`} value={choiceKey} onChange={(event) => setChoiceKey(event.target.value)}>
          {CHOICES.map((choice) => (
            <option key={choice.key} value={choice.key}>
              {choice.label}
            </option>
          ))}
        </select>
        <FormActions
          error={error}
          submitLabel={busy ? "Saving…" : "Save comment"}
          disabled={busy || comment.trim() === ""}
          onCancel={onClose}
        />
      </form>
    </Dialog>
  );
}
