import { datasetPathSchema, MAX_CUSTOM_COLUMNS } from "../../schemas/datasets";
import {
  exportMediaTypes,
  exportQuerySchema,
  importMediaTypes,
  importPathSchema,
  importQuerySchema,
  importSchema,
  MAX_FILE_FIELDS,
  MAX_GZIP_RATIO,
} from "../../schemas/files";
import { subjects } from "../../subjects";
import { defineOperation } from "../define";
import { DATASET } from "./paths";

/* A dataset as a file: export it, import one, follow an import. */

export const exportDataset = defineOperation({
  operationId: "exportDataset",
  command: "export",
  method: "GET",
  path: `${DATASET}/export`,
  tag: "datasets",
  summary: "The dataset as a CSV, JSONL or Parquet file, at its current version or any earlier one",
  description:
    "Streamed, and one consistent snapshot however long it takes: the version is fixed when the export starts (`X-Svc-Version` says which). CSV: a header row, then one line per row (CRLF, RFC 4180); the first column `id` is the row id, then one column per active column in display order, headed by its display name (a custom column named like a built-in field or `id` gets its identifier appended in parentheses); `X-Svc-Columns` gives each header's column identifier as a JSON object (when it fits in 8 KiB). A field is empty for a null cell, a string as itself unless it is empty or reads as JSON (then it is written as a JSON string, such as `\"42\"`), and any other value as its JSON. A text (a string cell, a header, a row id) that begins with =, +, -, @, a tab or a carriage return, which a spreadsheet would run as a formula, is written after an apostrophe (`'=1+2`), and one that begins with an apostrophe gets one more; an import removes one leading apostrophe, so the round trip is exact. `csvFormulas=raw` writes formulas as they are (docs/decisions/0031). JSONL: one object per row, `{rowId, input, output, expectedOutput, metadata, custom}` with custom cells by column identifier. Parquet: a string column `id`, then one column per active column headed as in CSV, each of logical type JSON (a cell holds any JSON value), null for a null cell. Imported back with `mode=update`, an export changes nothing.",
  subject: subjects.exports.chunk,
  access: "viewer",
  params: datasetPathSchema,
  query: exportQuerySchema,
  response: null,
  file: {
    mediaTypes: exportMediaTypes,
    headers: {
      "X-Svc-Version": { description: "The dataset version the file holds", type: "integer" },
      "X-Svc-Columns": {
        description:
          "CSV only: each header of the file and the identifier of its column, as a JSON object; left out when it would be longer than 8 KiB (many clients refuse response headers beyond 16 KiB), where the file's header row alone names the columns",
        type: "string",
      },
    },
  },
  successStatus: 200,
  errors: ["not_found"],
});

export const importDatasetFile = defineOperation({
  operationId: "importDatasetFile",
  command: "import",
  method: "POST",
  path: `${DATASET}/imports`,
  tag: "datasets",
  summary: "Import a CSV, JSONL, JSON or Parquet file into the dataset as one new version, as a job",
  description: `The body is the file, up to 1 GiB, its Content-Type naming the format: text/csv (RFC 4180 with a header row), application/x-ndjson (one JSON object per line), application/json (an array of objects) or application/vnd.apache.parquet (each row an object; 64-bit integers beyond 2^53 as digit strings, times as ISO-8601, binary as base64, lists and structs as JSON, a column of logical type JSON as its value, and a null as no value, like an empty CSV field; details.line of a bad row is its number in the file). The answer (202, with Location) is the import as it starts; poll it until its state is succeeded or failed. The whole file is one version (operation import), all or nothing: a bad line fails the import with details.line and writes nothing. In a CSV field, JSON (an object, array, number, true, false, null or a quoted string) is that value, other text is a string, and an empty field gives no value (null on insert, unchanged on update). mode=update keys each line by its row id and changes only the cells that differ; a file that changes nothing makes no version. A body sent with Content-Encoding: gzip is unpacked as it arrives, within the same 1 GiB and to at most ${MAX_GZIP_RATIO} times the bytes received (past its first 8 MiB): more is 413 at once. The start of the file, up to its first record, is read before the answer: a file whose first bytes show it is not the format its Content-Type names (a Parquet file without PAR1, an image or archive sent as text, text with a NUL byte) is 415 unsupported_media_type saying what it looks like, and any other fault found there (a bad header, a bad first record) is a 400 at once, with the error the import would have failed with. A record with more than ${MAX_FILE_FIELDS} fields (a CSV header, a JSON object with its custom object, the columns of a Parquet file) and a file that would take the dataset beyond ${MAX_CUSTOM_COLUMNS} custom columns are 400 too_many_columns (details.limit), at once when the start of the file shows it, else as the import's failure.`,
  subject: subjects.imports.start,
  access: "member",
  params: datasetPathSchema,
  query: importQuerySchema,
  response: importSchema,
  upload: { mediaTypes: importMediaTypes },
  successStatus: 202,
  errors: [
    "not_found",
    "unknown_column",
    "conflict",
    "too_many_columns",
    "payload_too_large",
    "unsupported_media_type",
  ],
});

export const getDatasetImport = defineOperation({
  operationId: "getDatasetImport",
  command: "get-import",
  method: "GET",
  path: `${DATASET}/imports/{importId}`,
  tag: "datasets",
  summary: "An import's progress (bytes and rows read) or outcome (its version, or why it failed)",
  subject: subjects.imports.get,
  access: "viewer",
  params: importPathSchema,
  response: importSchema,
  successStatus: 200,
  errors: ["not_found"],
});
