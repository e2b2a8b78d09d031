import { csvTextToCell } from "@svc/contracts/csv-text";
import type { DatasetColumn } from "@svc/sdk";
import { parse } from "csv-parse/browser/esm/sync";

export type FileFormat = "csv" | "jsonl" | "json" | "parquet";

/** What each format is uploaded as: the Content-Type names the format to the API. */
export const MEDIA_TYPES: Record<FileFormat, string> = {
  csv: "text/csv",
  jsonl: "application/x-ndjson",
  json: "application/json",
  parquet: "application/vnd.apache.parquet",
};

/** The format a file is in, from its name first (browsers guess types poorly), then its type. */
export function formatOf(file: { name: string; type: string }): FileFormat | undefined {
  const name = file.name.toLowerCase();
  if (name.endsWith(".csv")) return "csv";
  if (name.endsWith(".jsonl") || name.endsWith(".ndjson")) return "jsonl";
  if (name.endsWith(".json")) return "json";
  if (name.endsWith(".parquet")) return "parquet";
  if (file.type === "text/csv") return "csv";
  if (file.type === "application/x-ndjson") return "jsonl";
  if (file.type === "application/json") return "json";
  return undefined;
}

export interface FilePreview {
  /** The file's fields, in the order they first appear. */
  fields: string[];
  /** The first rows, each field's value as text. */
  rows: Record<string, string>[];
}

const PREVIEW_ROWS = 5;
/** Enough of the file for the first rows; the file itself is streamed to the platform, never read whole. */
const PREVIEW_BYTES = 256 * 1024;
/** A JSON array has no line boundaries: one this small is read whole for its preview. */
const JSON_PREVIEW_LIMIT = 16 * 1024 * 1024;

/**
 * A file that cannot be imported, for a reason its first bytes show: the message says so whole, in
 * words the person can act on.
 */
export class UnreadableFile extends Error {
  override name = "UnreadableFile";
}

const NOTHING_TO_IMPORT = "there is nothing to import";

/** The first rows of a file, read from its beginning only; throws with the reason when they do not parse. */
export async function previewFile(file: Blob, format: FileFormat): Promise<FilePreview> {
  if (file.size === 0) throw new UnreadableFile(`This file is empty: ${NOTHING_TO_IMPORT}.`);
  // Parquet is binary with its index at the end: its fields go by name, unpreviewed.
  if (format === "parquet") return { fields: [], rows: [] };
  if (format === "json" && file.size > JSON_PREVIEW_LIMIT) return { fields: [], rows: [] };
  const cut = format !== "json" && file.size > PREVIEW_BYTES;
  const head = textOf(
    new Uint8Array(await file.slice(0, cut ? PREVIEW_BYTES : file.size).arrayBuffer()),
    cut,
  );
  if (format === "json") {
    let value: unknown;
    try {
      value = JSON.parse(head);
    } catch {
      throw new Error("The file is not valid JSON");
    }
    if (!Array.isArray(value)) throw new Error("The file is not a JSON array of objects");
    if (value.length === 0) throw new UnreadableFile(`This file is an empty array: ${NOTHING_TO_IMPORT}.`);
    return fromObjects(value.slice(0, PREVIEW_ROWS));
  }
  if (format === "csv") return previewCsv(head);
  const lines = head.split(/\r?\n/);
  if (cut) lines.pop(); // cut short: the last line may be partial
  const objects = lines
    .filter((line) => line.trim() !== "")
    .slice(0, PREVIEW_ROWS)
    .map((line, index) => {
      try {
        return JSON.parse(line) as unknown;
      } catch {
        throw new Error(`Line ${index + 1} is not valid JSON`);
      }
    });
  if (objects.length === 0) throw new UnreadableFile(`This file has only blank lines: ${NOTHING_TO_IMPORT}.`);
  return fromObjects(objects);
}

/**
 * The text of a file's first bytes; throws when they are not text (a NUL byte, or bytes that are not
 * UTF-8), rather than show them: a spreadsheet or an archive saved under a text file's name.
 */
function textOf(bytes: Uint8Array, cut: boolean): string {
  const notText = new UnreadableFile(
    "This file is not text: it holds binary data (a spreadsheet or an archive, perhaps). Save it as CSV, JSONL or JSON, or choose a Parquet file.",
  );
  if (bytes.includes(0)) throw notText;
  try {
    // A cut may fall inside a character: streaming leaves its first bytes for a next chunk that never comes.
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes, { stream: cut });
  } catch {
    throw notText;
  }
}

function previewCsv(head: string): FilePreview {
  let records: string[][];
  try {
    records = parse(head, {
      bom: true,
      to: PREVIEW_ROWS + 1,
      relax_column_count: true,
      skip_empty_lines: true,
    }) as string[][];
  } catch (error) {
    const message = (error as Error).message;
    throw new Error(
      `The file is not a valid CSV: ${message.length > 160 ? `${message.slice(0, 160)}…` : message}`,
    );
  }
  const [header, ...body] = records;
  if (header === undefined) throw new UnreadableFile(`This file has only blank lines: ${NOTHING_TO_IMPORT}.`);
  const seen = new Set<string>();
  for (const [i, field] of header.entries()) {
    if (seen.has(field)) {
      throw new UnreadableFile(
        `The header row names “${field}” twice (fields ${header.indexOf(field) + 1} and ${i + 1}): give each field its own name in the first row.`,
      );
    }
    seen.add(field);
  }
  if (body.length === 0) {
    throw new UnreadableFile(`This file has a header row and no rows below it: ${NOTHING_TO_IMPORT}.`);
  }
  return {
    fields: header,
    rows: body.map((record) => Object.fromEntries(header.map((field, i) => [field, record[i] ?? ""]))),
  };
}

function fromObjects(objects: unknown[]): FilePreview {
  const fields: string[] = [];
  const rows = objects.map((object, index) => {
    if (object === null || typeof object !== "object" || Array.isArray(object)) {
      throw new Error(`Row ${index + 1} is not a JSON object`);
    }
    const row: Record<string, string> = {};
    for (const [field, value] of Object.entries(object)) {
      if (!fields.includes(field)) fields.push(field);
      row[field] = typeof value === "string" ? value : JSON.stringify(value);
    }
    return row;
  });
  return { fields, rows };
}

/**
 * Where one field of the file goes: a column's identifier, a new column, the row id, the custom
 * cells (an object of them by column, as an export writes `custom`), or nowhere.
 */
export type FieldTarget =
  | { kind: "column"; identifier: string }
  | { kind: "new" }
  | { kind: "cells" }
  | { kind: "id" }
  | { kind: "skip" };

const BUILTIN_NAMES: Record<string, string> = {
  input: "input",
  output: "output",
  expectedoutput: "expectedOutput",
  expected_output: "expectedOutput",
  metadata: "metadata",
};

/** The mapping the platform applies when none is given, so that the form starts where it would. */
export function defaultTargets(
  fields: readonly string[],
  columns: readonly DatasetColumn[],
  format: FileFormat,
): Record<string, FieldTarget> {
  const targets: Record<string, FieldTarget> = {};
  const ids = format === "csv" ? ["id"] : ["id", "rowId"];
  let idTaken = false;
  for (const field of fields) {
    const builtin = BUILTIN_NAMES[field.toLowerCase()];
    const active = columns.filter((c) => !c.removed);
    // A built-in cell by its field names, then any active column by identifier or display name (an
    // export's headers), as the platform does.
    const column =
      (builtin && active.find((c) => c.identifier === builtin)) ??
      active.find((c) => c.identifier === field || c.name === field);
    if (!idTaken && ids.includes(field)) {
      targets[field] = { kind: "id" };
      idTaken = true;
    } else if (format !== "csv" && field === "custom") targets[field] = { kind: "cells" };
    else if (column) targets[field] = { kind: "column", identifier: column.identifier };
    else targets[field] = { kind: "new" };
  }
  return targets;
}

/** What a CSV import makes of a field's text when that is not the text itself. */
export type Retyping = "number" | "boolean" | "null" | "object" | "array" | "text without its quotes";

/**
 * What the import reads a CSV field's text as, when not as the text: `42` a number, `true` a boolean,
 * `null` null, `{…}` an object, `"42"` the text 42. Undefined for text that stays text (and for an
 * empty field, which gives no value).
 */
export function csvRetyping(text: string): Retyping | undefined {
  const value = csvTextToCell(text);
  if (value === undefined || typeof value === "string") {
    return typeof value === "string" && value !== text && text.charCodeAt(0) !== APOSTROPHE
      ? "text without its quotes"
      : undefined;
  }
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value === "object" ? "object" : (typeof value as "number" | "boolean");
}

const APOSTROPHE = 0x27;

/** For each field of a CSV preview, what its first rows' values would be read as, in order of first sight. */
export function retypedFields(preview: FilePreview): Record<string, Retyping[]> {
  const found: Record<string, Retyping[]> = {};
  for (const field of preview.fields) {
    const kinds = new Set<Retyping>();
    for (const row of preview.rows) {
      const kind = csvRetyping(row[field] ?? "");
      if (kind) kinds.add(kind);
    }
    if (kinds.size > 0) found[field] = [...kinds];
  }
  return found;
}

/**
 * The import's `map`, `idField` and `textFields` for the targets chosen; an explicit map imports only
 * what it names, and only an imported field can be kept as text.
 */
export function importQuery(
  targets: Record<string, FieldTarget>,
  textFields: ReadonlySet<string> = new Set(),
): {
  map: Record<string, string>;
  idField?: string;
  textFields?: string[];
} {
  const map: Record<string, string> = {};
  let idField: string | undefined;
  for (const [field, target] of Object.entries(targets)) {
    if (target.kind === "column") map[field] = target.identifier;
    else if (target.kind === "new") map[field] = `new:${field}`;
    else if (target.kind === "cells") map[field] = "custom";
    else if (target.kind === "id") idField = field;
  }
  const kept = Object.keys(map).filter((field) => textFields.has(field));
  return {
    map,
    ...(idField === undefined ? {} : { idField }),
    ...(kept.length === 0 ? {} : { textFields: kept }),
  };
}
