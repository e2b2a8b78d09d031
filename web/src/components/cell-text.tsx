import type { Cell } from "@svc/sdk";
import { compact } from "../rows/cells";

/** A cell's value in one line of text, or "not set"; for diffs, histories, reviews and previews. */
export function CellText({ value }: { value: Cell | undefined }) {
  if (value === undefined) return <span className="muted">not set</span>;
  return <code>{compact(value, 2_000)}</code>;
}
