import { z } from "zod";
import { slugSchema } from "../ids";
import { versionNumberSchema } from "./common";

/*
 * Datasets as files: the formats, and how a cell is written in a CSV field so that reading the
 * field back gives the same JSON value, whatever it holds.
 */

export const exportFormats = ["csv", "jsonl"] as const;
export type ExportFormat = (typeof exportFormats)[number];
export const exportMediaTypes: Record<ExportFormat, string> = {
  csv: "text/csv; charset=utf-8",
  jsonl: "application/x-ndjson",
};

export const exportQuerySchema = z.strictObject({
  format: z.enum(exportFormats).default("csv").describe("csv (a header row, then one line per row) or jsonl"),
  version: versionNumberSchema
    .optional()
    .describe("Export the dataset as it was at this version; default: the current one"),
});

const rowKeySchema = z.object({ createdAt: z.string(), rowId: z.string() });

/** Internal: one request for the next piece of an export, from the gateway to the reader. */
export const exportChunkRequestSchema = z.strictObject({
  params: z.strictObject({ projectSlug: slugSchema, datasetSlug: slugSchema }),
  format: z.enum(exportFormats),
  /** Absent on the first request: the current version, unless the client asked for one. */
  version: z.number().int().min(0).optional(),
  /** The last row of the previous piece; absent on the first request, which also writes the header. */
  after: rowKeySchema.optional(),
});
export type ExportChunkRequest = z.infer<typeof exportChunkRequestSchema>;

export const exportChunkSchema = z.object({
  version: z.number().int(),
  /** On the first piece of a CSV: each header's column identifier (`id` for the row id). */
  columns: z.record(z.string(), z.string()).optional(),
  text: z.string(),
  /** Where the next piece starts; null when this piece ends the file. */
  after: rowKeySchema.nullable(),
});
export type ExportChunk = z.infer<typeof exportChunkSchema>;

/**
 * A cell as CSV field text, before RFC 4180 quoting: nothing for null (and for a cell that is not
 * set); a string as itself unless it is empty or would read back as another JSON value, in which
 * case it is written as a JSON string (`""`, `"42"`, `"true"`); any other value as its JSON.
 */
export function cellToCsvText(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (typeof value !== "string") return JSON.stringify(value);
  return value === "" || readsAsJson(value) ? JSON.stringify(value) : value;
}

/**
 * CSV field text as a cell: undefined for an empty field (no value given); JSON for a field that
 * is JSON (an object, array, number, `true`, `false`, `null` or a quoted string); else the text.
 */
export function csvTextToCell(text: string): unknown {
  if (text === "") return undefined;
  if (!mayBeJson(text)) return text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** A field is quoted when it holds a comma, a quote or a line break, or starts or ends with a space. */
export function csvField(text: string): string {
  return /[",\r\n]|^\s|\s$/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

const JSON_START = /^[\s{["\-0-9tfn]/;
const mayBeJson = (text: string) => JSON_START.test(text);

function readsAsJson(text: string): boolean {
  if (!mayBeJson(text)) return false;
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
