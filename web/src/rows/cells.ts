import { findInexactNumber } from "@svc/contracts/exact-numbers";
import type { Cell, DatasetColumn, DatasetRow } from "@svc/sdk";

/** A cell's value in a row: built-in cells by field, custom cells by identifier; undefined when unset. */
export function cellOf(row: DatasetRow, column: DatasetColumn): Cell | undefined {
  if (column.source.kind === "builtin") return row[column.source.field] as Cell | undefined;
  return row.custom[column.identifier];
}

/** One line of JSON for the grid: strings as they are, everything else as compact JSON. */
export function compact(value: Cell | undefined, max = 300): string {
  if (value === undefined) return "";
  const text = typeof value === "string" ? value : JSON.stringify(value);
  const line = text.replace(/\s+/g, " ");
  return line.length > max ? `${line.slice(0, max)}…` : line;
}

/** The JSON text an editor starts from: indented, so that nested values are readable. */
export const editableText = (value: Cell | undefined): string =>
  value === undefined ? "null" : JSON.stringify(value, null, 2);

/** Structural equality of JSON values; key order does not matter. */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== "object") return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b))
    return a.length === b.length && a.every((item, i) => sameJson(item, b[i]));
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = Object.keys(left);
  return (
    keys.length === Object.keys(right).length &&
    keys.every((key) => key in right && sameJson(left[key], right[key]))
  );
}

export interface JsonProblem {
  message: string;
  line: number;
  column: number;
}

/**
 * Parses an editor's text as one JSON value, or says where and why it is not JSON, or holds a number
 * that would be saved as another (the platform refuses it: see `findInexactNumber`).
 */
export function parseJson(text: string): { ok: true; value: Cell } | { ok: false; problem: JsonProblem } {
  try {
    const value = JSON.parse(text) as Cell;
    const inexact = findInexactNumber(text);
    if (!inexact) return { ok: true, value };
    const before = text.slice(0, inexact.index).split("\n");
    return {
      ok: false,
      problem: {
        message: `${inexact.text} cannot be saved exactly (a number keeps about 15 significant digits); write it as a string`,
        line: before.length,
        column: (before.at(-1)?.length ?? 0) + 1,
      },
    };
  } catch (error) {
    const message = (error as Error).message;
    const at = /line (\d+) column (\d+)/.exec(message);
    const position = /position (\d+)/.exec(message);
    let line = 1;
    let column = 1;
    if (at) {
      line = Number(at[1]);
      column = Number(at[2]);
    } else {
      const offset = position ? Number(position[1]) : text.length;
      const before = text.slice(0, offset).split("\n");
      line = before.length;
      column = (before.at(-1)?.length ?? 0) + 1;
    }
    const reason = message
      .replace(/^JSON\.parse: /, "")
      .replace(/ in JSON at position \d+.*$/, "")
      .replace(/\s*\(line \d+ column \d+\)$/, "");
    return { ok: false, problem: { message: reason, line, column } };
  }
}
