/*
 * How a CSV field's text reads as a cell, and how a cell's text is written so that it reads back:
 * one rule for the writer's import, the reader's export and the web application's import preview
 * (which imports this module alone, without the schemas).
 */

/**
 * What a CSV export does with text that a spreadsheet would run as a formula: `escape` (default)
 * writes an apostrophe before a text that begins with `=`, `+`, `-`, `@`, a tab or a carriage
 * return, which spreadsheets show as text and an import removes; `raw` writes such text as it is.
 * Either way a text that begins with an apostrophe gets one more, so that every export reads back
 * exactly.
 */
export const csvFormulaModes = ["escape", "raw"] as const;
export type CsvFormulaMode = (typeof csvFormulaModes)[number];

/**
 * CSV field text as a cell: undefined for an empty field (no value given); the text after it for a
 * field that begins with an apostrophe (see csvFormulaModes); JSON for a field that is JSON (an
 * object, array, number, `true`, `false`, `null` or a quoted string); else the text.
 */
export function csvTextToCell(text: string): unknown {
  if (text.charCodeAt(0) === APOSTROPHE) return text.slice(1);
  if (text === "") return undefined;
  if (!startsLikeJson(text.charCodeAt(0))) return text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

const APOSTROPHE = 0x27;

/** A CSV field's text without the apostrophe an export writes before text (see csvFormulaModes). */
export const csvUnescapedText = (text: string): string =>
  text.charCodeAt(0) === APOSTROPHE ? text.slice(1) : text;

/**
 * Whether an export writes an apostrophe before a text beginning with this UTF-16 unit (or UTF-8
 * byte: every one of them is ASCII): one a spreadsheet takes as the start of a formula, when
 * formulas are escaped, and an apostrophe always.
 */
export function csvNeedsApostrophe(unit: number | undefined, formulas: CsvFormulaMode): boolean {
  if (unit === APOSTROPHE) return true;
  return (
    formulas === "escape" &&
    (unit === 0x3d || // =
      unit === 0x2b || // +
      unit === 0x2d || // -
      unit === 0x40 || // @
      unit === 0x09 || // tab
      unit === 0x0d) // carriage return
  );
}

/**
 * Whether a text starting with this UTF-16 unit may be JSON, and so is parsed when read from a CSV
 * field: `{`, `[`, `"`, `-`, a digit, `t`, `f`, `n`, or a space (JavaScript's `\s`). The export
 * writes a string that would read back as JSON as a JSON string, by the same test.
 */
export function startsLikeJson(unit: number): boolean {
  return (
    unit === 0x7b || // {
    unit === 0x5b || // [
    unit === 0x22 || // "
    unit === 0x2d || // -
    (unit >= 0x30 && unit <= 0x39) ||
    unit === 0x74 || // t
    unit === 0x66 || // f
    unit === 0x6e || // n
    isSpace(unit)
  );
}

/** Whether a UTF-16 unit is one that JavaScript's `\s` matches. */
export function isSpace(unit: number): boolean {
  if (unit < 0x80) return unit === 0x20 || (unit >= 0x09 && unit <= 0x0d);
  return (
    unit === 0xa0 ||
    unit === 0x1680 ||
    (unit >= 0x2000 && unit <= 0x200a) ||
    unit === 0x2028 ||
    unit === 0x2029 ||
    unit === 0x202f ||
    unit === 0x205f ||
    unit === 0x3000 ||
    unit === 0xfeff
  );
}
