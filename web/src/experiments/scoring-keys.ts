/** What a key does on the experiment page, with a result selected; undefined for any other key. */
export type KeyCommand =
  | { kind: "move"; by: 1 | -1 }
  | { kind: "score"; name: typeof PASS; value: boolean }
  | { kind: "score"; name: typeof RATING; value: 1 | 2 | 3 | 4 | 5 }
  | { kind: "comment" };

/** The human scores the keys record: a verdict and a rating. */
export const PASS = "pass";
export const RATING = "rating";

/**
 * j or ↓ moves down, k or ↑ up; p and f record a pass or a fail, 1 to 5 a rating, c opens the comment
 * box. A key pressed with Ctrl, Alt or Meta is the browser's, and so is any key typed into a field.
 */
export function keyCommand(event: {
  key: string;
  ctrlKey: boolean;
  altKey: boolean;
  metaKey: boolean;
  target: EventTarget | null;
}): KeyCommand | undefined {
  if (event.ctrlKey || event.altKey || event.metaKey || typingIn(event.target)) return undefined;
  switch (event.key) {
    case "j":
    case "ArrowDown":
      return { kind: "move", by: 1 };
    case "k":
    case "ArrowUp":
      return { kind: "move", by: -1 };
    case "p":
      return { kind: "score", name: PASS, value: true };
    case "f":
      return { kind: "score", name: PASS, value: false };
    case "1":
    case "2":
    case "3":
    case "4":
    case "5":
      return { kind: "score", name: RATING, value: Number(event.key) as 1 | 2 | 3 | 4 | 5 };
    case "c":
      return { kind: "comment" };
    default:
      return undefined;
  }
}

function typingIn(target: EventTarget | null): boolean {
  if (typeof HTMLElement === "undefined" || !(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  if (target.closest("dialog[open]")) return true;
  const tag = target.tagName;
  if (tag === "TEXTAREA" || tag === "SELECT") return true;
  if (tag !== "INPUT") return false;
  const type = (target as HTMLInputElement).type;
  return type !== "checkbox" && type !== "radio" && type !== "button";
}

/** The row `by` places from `current` among `rowIds`, kept inside the list; the first when none is. */
export function moveSelection(
  rowIds: readonly string[],
  current: string | undefined,
  by: 1 | -1,
): string | undefined {
  if (rowIds.length === 0) return undefined;
  const at = current === undefined ? -1 : rowIds.indexOf(current);
  if (at === -1) return rowIds[0];
  return rowIds[Math.max(0, Math.min(rowIds.length - 1, at + by))];
}
