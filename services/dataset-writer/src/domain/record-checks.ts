import {
  DomainError,
  findInexactNumber,
  INEXACT_REASON,
  MAX_CUSTOM_COLUMNS,
  MAX_FILE_FIELDS,
  shownNumber,
} from "@svc/contracts";

/** The most text one record may hold: a larger one is refused, not held in memory. */
export const MAX_RECORD_CHARS = 16 * 1024 * 1024;

/** The error for a record that cannot be imported: a `validation_failed` naming the line it is on. */
export const badLine = (line: number, reason: string, extra: Record<string, unknown> = {}) =>
  new DomainError("validation_failed", `Line ${line}: ${reason}`, { line, ...extra });

/**
 * The error for a record with more fields than a file may have (`what` says which: "the header row
 * has 100000 fields" or "has more than 1016 fields" when counting stopped at the limit).
 */
export const tooManyFields = (line: number, what: string) =>
  new DomainError(
    "too_many_columns",
    `Line ${line}: ${what}; a file may have at most ${MAX_FILE_FIELDS} fields (a dataset at most ${MAX_CUSTOM_COLUMNS} custom columns, besides the row id and the built-in cells). Split the file's fields over several datasets, or leave out the ones you do not need`,
    { line, limit: MAX_FILE_FIELDS },
  );

/** Text that may hold a number beyond a double's range (1e400, or 309 digits and more). */
const MAY_OVERFLOW = /\d[eE]\+?0*[1-9]\d{2}|\d{309}/;

/**
 * Refuses a number that would be stored as another: one too large for a double (JSON.parse reads it
 * as Infinity, which JSON cannot hold, and it would be stored as null, as the API refuses it), or one
 * with more digits than a double holds (see `findInexactNumber`). Only text that may hold one is walked.
 */
export function checkNumbers(value: unknown, text: string, line: number): void {
  // A string read from text holds no number, whatever digits it has.
  if (typeof value === "string") return;
  if (MAY_OVERFLOW.test(text) && !allFinite(value)) {
    throw badLine(line, "a number is beyond the range of a double (about 1.8e308); write it as a string", {
      reason: "number_out_of_range",
    });
  }
  const inexact = findInexactNumber(text);
  if (inexact) {
    throw badLine(line, `the number ${shownNumber(inexact.text)} ${INEXACT_REASON}; write it as a string`, {
      reason: "inexact_number",
    });
  }
}

function allFinite(value: unknown): boolean {
  if (typeof value === "number") return Number.isFinite(value);
  if (Array.isArray(value)) return value.every(allFinite);
  if (value !== null && typeof value === "object") return Object.values(value).every(allFinite);
  return true;
}
