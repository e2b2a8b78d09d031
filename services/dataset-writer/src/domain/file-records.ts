import type { Writable } from "node:stream";
import {
  csvTextToCell,
  DomainError,
  findInexactNumber,
  firstInvalidByte,
  type ImportFormat,
  INEXACT_REASON,
  shownNumber,
} from "@svc/contracts";
import { parse as parseCsv } from "csv-parse";

/** One record of a file: its line (where it starts) and its fields, each a JSON value. */
export interface FileRecord {
  line: number;
  fields: Record<string, unknown>;
  /** CSV only: each field's text as written, for what is text whatever it looks like (a row id). */
  text?: Record<string, string>;
}

/** How far the reading has got, for an import's progress. */
export interface ReadProgress {
  bytesRead: number;
}

/** The most text one record may hold: a larger one is refused, not held in memory. */
const MAX_RECORD_CHARS = 16 * 1024 * 1024;

/**
 * The records of a file, read as it streams in: CSV (RFC 4180, a header row), JSONL (an object per
 * line) or a JSON array of objects. Memory holds one record at a time. A malformed record throws a
 * `validation_failed` naming its line; so does text that is not UTF-8.
 */
export function readRecords(
  format: ImportFormat,
  chunks: AsyncIterable<Uint8Array>,
  progress: ReadProgress,
): AsyncIterable<FileRecord> {
  const text = decodeUtf8(chunks, progress);
  if (format === "csv") return readCsv(text);
  if (format === "jsonl") return readJsonLines(text);
  return readJsonArray(text);
}

export const badLine = (line: number, reason: string, extra: Record<string, unknown> = {}) =>
  new DomainError("validation_failed", `Line ${line}: ${reason}`, { line, ...extra });

/** Text pieces with the line each starts on; bytes that are not UTF-8 fail on the line they are on. */
async function* decodeUtf8(chunks: AsyncIterable<Uint8Array>, progress: ReadProgress): AsyncIterable<string> {
  const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });
  let line = 1;
  for await (const chunk of chunks) {
    progress.bytesRead += chunk.byteLength;
    let piece: string;
    try {
      piece = decoder.decode(chunk, { stream: true });
    } catch {
      const bad = firstInvalidByte(chunk);
      let at = line;
      for (let i = 0; i < bad; i++) if (chunk[i] === 0x0a) at++;
      throw badLine(at, "the file is not valid UTF-8 text; save it as UTF-8 and upload it again", {
        offset: progress.bytesRead - chunk.byteLength + bad,
      });
    }
    line += countNewlines(piece);
    yield piece;
  }
  try {
    const rest = decoder.decode();
    if (rest) yield rest;
  } catch {
    throw badLine(line, "the file ends inside a UTF-8 character; it is not valid UTF-8 text");
  }
}

/** Resolves when a full stream has room again, or is closed and never will. */
function roomIn(stream: Writable): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      stream.off("drain", done);
      stream.off("close", done);
      resolve();
    };
    stream.on("drain", done);
    stream.on("close", done);
  });
}

function countNewlines(text: string): number {
  let count = 0;
  for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) count++;
  return count;
}

async function* readCsv(text: AsyncIterable<string>): AsyncIterable<FileRecord> {
  const parser = parseCsv({
    bom: true,
    info: true,
    relax_column_count: false,
    skip_empty_lines: true,
    max_record_size: MAX_RECORD_CHARS,
  });
  // Feed the parser from the text, and stop feeding when it fails or is no longer read: a parser
  // that failed never drains, so waiting for room ends when it closes too.
  const feeding = (async () => {
    try {
      for await (const piece of text) {
        if (parser.destroyed) return;
        if (!parser.write(piece)) await roomIn(parser);
      }
      if (!parser.destroyed) parser.end();
    } catch (error) {
      parser.destroy(error as Error);
    }
  })();
  let header: string[] | undefined;
  try {
    for await (const { record, info } of parser as AsyncIterable<{
      record: string[];
      info: { lines: number };
    }>) {
      // `info.lines` is the line the record ends on; a record with line breaks in quotes starts earlier.
      const line = info.lines - (record.join("").match(/\n/g)?.length ?? 0);
      if (!header) {
        header = checkHeader(record, line);
        continue;
      }
      const fields: Record<string, unknown> = {};
      const written: Record<string, string> = {};
      header.forEach((name, i) => {
        const value = csvTextToCell(record[i] ?? "");
        if (value === undefined) return;
        checkNumbers(value, record[i] ?? "", line);
        fields[name] = value;
        written[name] = record[i] ?? "";
      });
      yield { line, fields, text: written };
    }
  } catch (error) {
    throw csvError(error);
  } finally {
    parser.destroy();
    await feeding;
  }
  if (!header)
    throw new DomainError("validation_failed", "The file is empty: a CSV file needs a header row", {
      line: 1,
    });
}

function checkHeader(names: string[], line: number): string[] {
  const seen = new Map<string, number>();
  names.forEach((name, i) => {
    if (name.trim() === "") throw badLine(line, `column ${i + 1} of the header row has no name`);
    const earlier = seen.get(name);
    if (earlier !== undefined) {
      throw badLine(line, `the header names "${name}" twice (columns ${earlier + 1} and ${i + 1})`, {
        field: name,
      });
    }
    seen.set(name, i);
  });
  return names;
}

function csvError(error: unknown): unknown {
  if (error instanceof DomainError) return error;
  const { code, lines, message } = error as { code?: string; lines?: number; message?: string };
  if (typeof code !== "string" || (!code.startsWith("CSV_") && code !== "INVALID_OPENING_QUOTE"))
    return error;
  const line = typeof lines === "number" ? lines : 0;
  const reason =
    code === "CSV_QUOTE_NOT_CLOSED"
      ? "a quoted field is never closed: a quote is missing"
      : code === "CSV_RECORD_INCONSISTENT_FIELDS_LENGTH"
        ? "the line has another number of fields than the header row"
        : code === "CSV_MAX_RECORD_SIZE"
          ? `the line is longer than ${MAX_RECORD_CHARS} characters`
          : (message ?? code).replace(/^Invalid Record Length: |^Invalid /, "").replace(/,? at line \d+/, "");
  return badLine(line, reason, { reason: code });
}

/** Splits text into lines, each with its number; a line longer than the limit fails. */
async function* linesOf(text: AsyncIterable<string>): AsyncIterable<{ line: number; text: string }> {
  let buffered = "";
  let line = 1;
  for await (const piece of text) {
    buffered += piece;
    let end = buffered.indexOf("\n");
    while (end >= 0) {
      yield { line, text: buffered.slice(0, end).replace(/\r$/, "") };
      line++;
      buffered = buffered.slice(end + 1);
      end = buffered.indexOf("\n");
    }
    if (buffered.length > MAX_RECORD_CHARS)
      throw badLine(line, `the line is longer than ${MAX_RECORD_CHARS} characters`);
  }
  if (buffered.replace(/\r$/, "").length > 0) yield { line, text: buffered.replace(/\r$/, "") };
}

async function* readJsonLines(text: AsyncIterable<string>): AsyncIterable<FileRecord> {
  let any = false;
  for await (const { line, text: content } of linesOf(text)) {
    const trimmed = content.replace(/^\uFEFF/, "").trim();
    if (trimmed === "") continue;
    any = true;
    yield { line, fields: parseObject(trimmed, line) };
  }
  if (!any)
    throw new DomainError(
      "validation_failed",
      "The file is empty: a JSONL file needs one JSON object per line",
      { line: 1 },
    );
}

function parseObject(text: string, line: number): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw badLine(line, `not valid JSON (${(error as Error).message})`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw badLine(line, "each record must be a JSON object of fields");
  }
  checkNumbers(value, text, line);
  return value as Record<string, unknown>;
}

/** Text that may hold a number beyond a double's range (1e400, or 309 digits and more). */
const MAY_OVERFLOW = /\d[eE]\+?0*[1-9]\d{2}|\d{309}/;

/**
 * Refuses a number that would be stored as another: one too large for a double (JSON.parse reads it
 * as Infinity, which JSON cannot hold, and it would be stored as null, as the API refuses it), or one
 * with more digits than a double holds (see `findInexactNumber`). Only text that may hold one is walked.
 */
function checkNumbers(value: unknown, text: string, line: number): void {
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

/**
 * The elements of a top-level JSON array, each parsed on its own as soon as its text is complete:
 * the scanner only tracks strings and nesting to find where an element ends.
 */
async function* readJsonArray(text: AsyncIterable<string>): AsyncIterable<FileRecord> {
  let state: "before" | "element" | "done" = "before";
  let line = 1;
  let depth = 0;
  let inString = false;
  let escaped = false;
  let element = "";
  let elementLine = 1;
  let afterComma = false;
  let any = false;
  const take = (): FileRecord => {
    const record = { line: elementLine, fields: parseObject(element, elementLine) };
    element = "";
    any = true;
    return record;
  };
  for await (const piece of text) {
    for (let i = 0; i < piece.length; i++) {
      const char = piece[i] as string;
      if (char === "\n") line++;
      if (state === "element") {
        if (inString) {
          if (escaped) escaped = false;
          else if (char === "\\") escaped = true;
          else if (char === '"') inString = false;
          element += char;
          continue;
        }
        if (depth === 0 && (char === "," || char === "]")) {
          if (element === "" && (char === "," || afterComma))
            throw badLine(line, "an empty element in the array");
          if (element !== "") yield take();
          afterComma = char === ",";
          if (char === "]") state = "done";
          continue;
        }
        if (char === '"') inString = true;
        else if (char === "{" || char === "[") depth++;
        else if (char === "}" || char === "]") depth--;
        if (element === "" && /\s/.test(char)) continue;
        if (element === "") elementLine = line;
        element += char;
        if (element.length > MAX_RECORD_CHARS) {
          throw badLine(elementLine, `the element is longer than ${MAX_RECORD_CHARS} characters`);
        }
        continue;
      }
      if (/\s|\uFEFF/.test(char)) continue;
      if (state === "before" && char === "[") {
        state = "element";
        continue;
      }
      throw badLine(
        line,
        state === "before"
          ? "a JSON file must be an array of objects: [ {…}, {…} ]"
          : "text after the end of the array",
      );
    }
  }
  if (state === "before") {
    throw new DomainError("validation_failed", "The file is empty: a JSON file needs an array of objects", {
      line: 1,
    });
  }
  if (state !== "done") throw badLine(line, "the array is never closed: the file ends inside it");
  if (!any)
    throw new DomainError("validation_failed", "The file holds an empty array: there is nothing to import", {
      line: 1,
    });
}
