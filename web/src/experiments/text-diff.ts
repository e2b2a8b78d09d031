import { diffChars, diffWordsWithSpace } from "diff";

/** A run of text that both sides share, or that only the output (added) or the expected one (removed) has. */
export interface DiffPart {
  text: string;
  kind: "same" | "added" | "removed";
}

/** A cell as the diff reads it: strings as they are, anything else as compact JSON; nothing when unset. */
export function cellText(value: unknown): string {
  if (value === undefined || value === null) return "";
  return typeof value === "string" ? value : JSON.stringify(value);
}

/** Above this many characters on either side, a diff is not worth its time: the texts show as they are. */
export const MAX_DIFF_TEXT = 20_000;

/**
 * What the output changed from the expected output: word by word, or character by character when both
 * are a single word (a number, a label) so that "1024" against "1042" shows the two swapped digits.
 * Undefined when either is missing or too long to compare.
 */
export function outputDiff(expected: unknown, output: unknown): DiffPart[] | undefined {
  if (expected === undefined || expected === null || output === undefined || output === null)
    return undefined;
  const before = cellText(expected);
  const after = cellText(output);
  if (before.length > MAX_DIFF_TEXT || after.length > MAX_DIFF_TEXT) return undefined;
  const oneWord = !/\s/.test(before) && !/\s/.test(after) && before.length <= 64 && after.length <= 64;
  const changes = oneWord ? diffChars(before, after) : diffWordsWithSpace(before, after);
  // Two different words share a letter here and there: marking those reads as noise, not as a change.
  if (oneWord && shared(changes) < Math.max(before.length, after.length) / 2)
    return [
      { text: before, kind: "removed" },
      { text: after, kind: "added" },
    ];
  return changes.map((change) => ({
    text: change.value,
    kind: change.added ? "added" : change.removed ? "removed" : "same",
  }));
}

const shared = (changes: readonly { value: string; added: boolean; removed: boolean }[]): number =>
  changes.reduce((sum, change) => (change.added || change.removed ? sum : sum + change.value.length), 0);

/** The output matches the expected output exactly, as text. */
export const sameText = (parts: readonly DiffPart[]): boolean => parts.every((part) => part.kind === "same");
