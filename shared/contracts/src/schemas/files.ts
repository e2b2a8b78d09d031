import { z } from "zod";
import { csvFormulaModes } from "../csv-text";
import { slugSchema } from "../ids";
import { versionNumberSchema, versionSchema } from "./common";
import { MAX_CUSTOM_COLUMNS } from "./datasets";
import { recordOf } from "./proto-keys";

/*
 * Datasets as files: the formats, and how a CSV field is read as a cell (the reader's export writes
 * each cell so that reading its field back gives the same JSON value, whatever it holds).
 */

export const exportFormats = ["csv", "jsonl", "parquet"] as const;
export type ExportFormat = (typeof exportFormats)[number];
export const exportMediaTypes: Record<ExportFormat, string> = {
  csv: "text/csv; charset=utf-8",
  jsonl: "application/x-ndjson",
  parquet: "application/vnd.apache.parquet",
};

export const exportQuerySchema = z.strictObject({
  format: z
    .enum(exportFormats)
    .default("csv")
    .describe(
      "csv (a header row, then one line per row), jsonl, or parquet (a string column `id`, then one JSON column per active column, headed as in CSV)",
    ),
  version: versionNumberSchema
    .optional()
    .describe("Export the dataset as it was at this version; default: the current one"),
  csvFormulas: z
    .enum(csvFormulaModes)
    .default("escape")
    .describe(
      "CSV only. escape (default): a text cell, header or row id that begins with =, +, -, @, a tab or a carriage return is written after an apostrophe (') so that a spreadsheet shows it as text instead of running it as a formula; an import removes the apostrophe. raw: such text is written as it is, for programs that read the file. Either way a text that begins with an apostrophe is written with one more, and numbers (-5) are written as numbers",
    ),
});

const rowKeySchema = z.object({ createdAt: z.string(), rowId: z.string() });

/** Internal: one request for the next piece of an export, from the gateway to the reader. */
export const exportChunkRequestSchema = z.strictObject({
  params: z.strictObject({ projectSlug: slugSchema, datasetSlug: slugSchema }),
  format: z.enum(exportFormats),
  csvFormulas: z.enum(csvFormulaModes).optional(),
  /** Absent on the first request: the current version, unless the client asked for one. */
  version: versionSchema.optional(),
  /** The last row of the previous piece; absent on the first request, which also writes the header. */
  after: rowKeySchema.optional(),
  /**
   * After the first piece: the identifiers of the columns it headed, in order, so that every piece
   * writes the same columns however the dataset's columns change while the file is sent.
   */
  columns: z.array(z.string()).optional(),
  /**
   * How many rows the previous piece held: the first page of this one is read at that size instead
   * of starting small, since rows of one dataset tend to be alike.
   */
  rowsHint: z.number().int().min(1).max(1_000_000).optional(),
  /**
   * After the first piece: the dataset it read. A later piece fails as not found when the slug has
   * come to name another dataset meanwhile, rather than go on with that one's rows.
   */
  datasetId: z.string().min(1).optional(),
});
export type ExportChunkRequest = z.infer<typeof exportChunkRequestSchema>;

/** One piece of an export: this, and the piece's bytes beside it on the bus. */
export const exportChunkSchema = z.object({
  /** The dataset read, for the later requests to name. */
  datasetId: z.string().min(1).optional(),
  version: z.number().int(),
  /**
   * On the first piece: each header's column identifier (`id` for the row id). A Parquet export's
   * pieces are JSON arrays, one per line, of the row id and the cells in the order of these headers;
   * the gateway writes the file from them.
   */
  columns: recordOf(z.string(), z.string()).optional(),
  /** On the first piece: the headers in order, `id` first. */
  headers: z.array(z.string()).optional(),
  /** Where the next piece starts; null when this piece ends the file. */
  after: rowKeySchema.nullable(),
  /** How many rows this piece holds. */
  rows: z.number().int().min(0),
});
export type ExportChunk = z.infer<typeof exportChunkSchema>;

export {
  type CsvFormulaMode,
  csvFormulaModes,
  csvNeedsApostrophe,
  csvTextToCell,
  csvUnescapedText,
  isSpace,
  startsLikeJson,
} from "../csv-text";

export const importFormats = ["csv", "jsonl", "json", "parquet"] as const;
export type ImportFormat = (typeof importFormats)[number];
/** The Content-Type of an upload names its format. */
export const importMediaTypes: Record<ImportFormat, string> = {
  csv: "text/csv",
  jsonl: "application/x-ndjson",
  json: "application/json",
  parquet: "application/vnd.apache.parquet",
};
/**
 * The most fields one record of an imported file may have (a CSV header's width, the fields of a
 * JSONL or JSON object, the columns of a Parquet file): a dataset's custom columns, and room for the
 * row id and the built-in cells under any of their names. A wider file is refused at its header.
 */
export const MAX_FILE_FIELDS = MAX_CUSTOM_COLUMNS + 16;

/** The largest file an import takes. */
export const MAX_IMPORT_BYTES = 1024 ** 3;

/**
 * A body sent with `Content-Encoding: gzip` may unpack to at most this many times the bytes received
 * so far, once past `GZIP_FREE_BYTES`: text compresses 5 to 20 times, and a body of zeros over 1,000
 * times, so a few megabytes could otherwise make the gateway unpack a gibibyte before refusing it.
 */
export const MAX_GZIP_RATIO = 200;
export const GZIP_FREE_BYTES = 8 * 1024 ** 2;

const mapTargetSchema = z
  .string()
  .regex(/^(new:.{1,128}|[A-Za-z0-9_]{1,64})$/, 'must be a column identifier or "new:<display name>"');

export const importQuerySchema = z.strictObject({
  mode: z
    .enum(["insert", "update"])
    .default("insert")
    .describe("insert: every line is a new row; update: every line edits the row its id names"),
  map: z
    .string()
    .max(8000, "must be at most 8000 characters")
    .transform((text, ctx) => {
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        ctx.addIssue({ code: "custom", message: "must be a JSON object from file field to column" });
        return z.NEVER;
      }
      const parsed = recordOf(z.string().min(1).max(256), mapTargetSchema).safeParse(value);
      if (!parsed.success) {
        ctx.addIssue({
          code: "custom",
          message: `must be a JSON object from file field to a column identifier or "new:<name>": ${parsed.error.issues[0]?.message ?? ""}`,
        });
        return z.NEVER;
      }
      return parsed.data;
    })
    .optional()
    .describe(
      'A JSON object from a file field to the column it feeds: a cell identifier (input, output, expectedOutput, metadata, or a custom column\'s identifier), "new:<display name>" to create a custom column, or "custom" for a field whose value is an object of custom cells by column identifier or name (as an export writes it; null: none). Fields not named are not imported. Without map, fields go by name: built-in cells (expected_output too), active columns by identifier or display name, the id field, and every other field to a new custom column of its name',
    ),
  idField: z
    .string()
    .min(1)
    .max(256)
    .optional()
    .describe(
      "The field that holds row ids (default: id; JSONL and JSON also accept rowId); required by mode=update",
    ),
  textFields: z
    .string()
    .max(8000, "must be at most 8000 characters")
    .transform((text, ctx) => {
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        ctx.addIssue({ code: "custom", message: "must be a JSON array of file field names" });
        return z.NEVER;
      }
      const parsed = z.array(z.string().min(1).max(256)).max(MAX_FILE_FIELDS).safeParse(value);
      if (!parsed.success) {
        ctx.addIssue({
          code: "custom",
          message: `must be a JSON array of file field names: ${parsed.error.issues[0]?.message ?? ""}`,
        });
        return z.NEVER;
      }
      return parsed.data;
    })
    .optional()
    .describe(
      'CSV only: a JSON array of file fields whose values are kept as the text written, such as ["zip","answer"]: in them 42, true, null or an object\'s JSON become strings instead of a number, a boolean, null or an object. An empty field still gives no value, and a leading apostrophe is still removed',
    ),
});
export type ImportQuery = z.output<typeof importQuerySchema>;

export const importStates = ["receiving", "running", "succeeded", "failed"] as const;
export const importSchema = z.object({
  importId: z.string(),
  state: z.enum(importStates),
  format: z.enum(importFormats),
  mode: z.enum(["insert", "update"]),
  bytesRead: z.number().int(),
  rowsRead: z.number().int(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
  versionId: z
    .string()
    .nullable()
    .optional()
    .describe("The version the import made; null when it changed nothing"),
  version: z
    .number()
    .int()
    .optional()
    .describe(
      "The dataset's version after the import: the one it made, or the current one when it changed nothing",
    ),
  rowsInserted: z.number().int().optional(),
  rowsUpdated: z.number().int().optional(),
  error: z
    .object({ code: z.string(), error: z.string(), details: z.record(z.string(), z.unknown()).optional() })
    .optional()
    .describe("Why a failed import failed; details.line names the file's line"),
});
export type Import = z.infer<typeof importSchema>;

export const importPathSchema = z.strictObject({
  projectSlug: slugSchema,
  datasetSlug: slugSchema,
  importId: z.string().regex(/^[a-z0-9]{1,64}$/, "must be an import id"),
});

/** Internal: the gateway hands an uploaded file to the writer, which imports it as a job. */
export const importStartSchema = z.strictObject({
  params: z.strictObject({ projectSlug: slugSchema, datasetSlug: slugSchema }),
  query: z.strictObject({
    mode: z.enum(["insert", "update"]),
    // A file's field may be called `__proto__`: recordOf keeps it a key.
    map: recordOf(z.string(), z.string()).optional(),
    idField: z.string().optional(),
    /** CSV only: the fields whose text is their value, whatever it looks like. */
    textFields: z.array(z.string()).optional(),
  }),
  upload: z.strictObject({
    /** The file's name in the upload store. */
    objectName: z.string(),
    format: z.enum(importFormats),
    bytes: z.number().int().min(0),
  }),
});
export type ImportStart = z.infer<typeof importStartSchema>;
