import type { Cell, DatasetColumn } from "@svc/sdk";
import { editableText, parseJson } from "./cells";

/**
 * How a cell is edited: as plain text (what is typed is the string saved, no quotes, line breaks as
 * line breaks) or as JSON (any value, typed as JSON). A draft always holds the JSON text of its value;
 * Text mode is a view of it, which exists while that value is a string or the cell is empty.
 */
export type CellMode = "text" | "json";

export const CELL_MODES: readonly CellMode[] = ["text", "json"];

/**
 * Where editing starts: a string, or an empty cell (not set, or null), as text; any other value as
 * JSON. An empty metadata cell starts as JSON: metadata is keys and values by its nature.
 */
export function modeFor(value: Cell | undefined, column?: DatasetColumn): CellMode {
  if (typeof value === "string") return "text";
  if (value !== undefined && value !== null) return "json";
  return column?.source.kind === "builtin" && column.source.field === "metadata" ? "json" : "text";
}

const isEmpty = (value: Cell | undefined) => value === undefined || value === null;

/**
 * What Text mode shows for a draft's JSON text: the string it holds, or nothing for an empty cell
 * left empty; undefined when the text holds another value, or is not JSON.
 */
export function plainTextOf(json: string): string | undefined {
  const parsed = parseJson(json);
  if (!parsed.ok) return undefined;
  if (typeof parsed.value === "string") return parsed.value;
  return parsed.value === null ? "" : undefined;
}

/**
 * The JSON text of what was typed in Text mode: the string itself, except that nothing typed in a
 * cell that was empty leaves it as it was (clearing a text does not turn null into "").
 */
export const jsonOfPlainText = (plain: string, original: Cell | undefined): string =>
  plain === "" && isEmpty(original) ? editableText(original) : JSON.stringify(plain);

/** A draft cell's text and mode once switched to `mode`, and what the switch did to its value. */
export interface Switched {
  text: string;
  mode: CellMode;
  /** Said to the person when the switch changed what the cell holds. */
  note: string | undefined;
}

/**
 * Switches a cell's mode, converting where it can. To JSON, the value stays what it is: the text
 * "42" becomes the JSON string `"42"`, not the number. To Text, a string (or an empty cell) stays
 * itself; any other value, or JSON that does not parse, becomes its JSON text as a string, and the
 * note says so.
 */
export function switchMode(json: string, mode: CellMode): Switched {
  if (mode === "json") {
    const plain = plainTextOf(json);
    const note =
      plain !== undefined && typedLookalike(plain) !== undefined
        ? `The text ${JSON.stringify(plain)} stays a string in JSON; remove its quotes to make it a ${typedLookalike(plain)}.`
        : undefined;
    return { text: json, mode, note };
  }
  if (plainTextOf(json) !== undefined) return { text: json, mode, note: undefined };
  const parsed = parseJson(json);
  const what = parsed.ok ? `The ${kindOf(parsed.value)}` : "The JSON typed";
  return {
    text: JSON.stringify(json),
    mode,
    note: `${what} is now text: saved from Text mode, the cell holds the string shown. Switch back to JSON to keep it a ${parsed.ok ? kindOf(parsed.value) : "JSON value"}.`,
  };
}

/** The kind of JSON value a text would be without quotes (`42`, `true`, `null`), if it is one. */
export function typedLookalike(text: string): "number" | "boolean" | "null" | undefined {
  const trimmed = text.trim();
  if (trimmed !== text || trimmed === "") return undefined;
  if (trimmed === "true" || trimmed === "false") return "boolean";
  if (trimmed === "null") return "null";
  return /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/.test(trimmed) ? "number" : undefined;
}

/** A JSON value's kind, in words. */
export function kindOf(value: Cell): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "object") return "object";
  return typeof value;
}
