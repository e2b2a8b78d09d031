import { paginationQuerySchema } from "../schemas/common";
import {
  columnListSchema,
  columnPathSchema,
  copyRowsBodySchema,
  copyRowsResultSchema,
  createColumnBodySchema,
  createDatasetBodySchema,
  datasetColumnSchema,
  datasetPageSchema,
  datasetPathSchema,
  datasetRowSchema,
  datasetSchema,
  datasetVersionSchema,
  deleteRowsBodySchema,
  deleteRowsResultSchema,
  diffPageSchema,
  diffQuerySchema,
  getRowQuerySchema,
  ifMatchSchema,
  insertRowsBodySchema,
  insertRowsResultSchema,
  listColumnsQuerySchema,
  listDatasetsQuerySchema,
  listRowsQuerySchema,
  projectPathSchema,
  renameColumnBodySchema,
  reorderColumnsBodySchema,
  rowHistoryPageSchema,
  rowPageSchema,
  rowPathSchema,
  updateDatasetBodySchema,
  updateRowBodySchema,
  updateRowsBodySchema,
  updateRowsResultSchema,
  versionPageSchema,
  versionPathSchema,
  versionResultSchema,
} from "../schemas/datasets";
import {
  exportMediaTypes,
  exportQuerySchema,
  importMediaTypes,
  importPathSchema,
  importQuerySchema,
  importSchema,
} from "../schemas/files";
import { subjects } from "../subjects";
import { defineOperation } from "./define";

const DATASETS = "/v1/projects/{projectSlug}/datasets";
const DATASET = `${DATASETS}/{datasetSlug}`;

export const listDatasets = defineOperation({
  operationId: "listDatasets",
  command: "list",
  method: "GET",
  path: DATASETS,
  tag: "datasets",
  summary: "List the project's datasets",
  subject: subjects.datasets.list,
  access: "viewer",
  params: projectPathSchema,
  query: listDatasetsQuerySchema,
  response: datasetPageSchema,
  successStatus: 200,
  errors: ["not_found"],
  paginated: true,
});

export const createDataset = defineOperation({
  operationId: "createDataset",
  command: "create",
  method: "POST",
  path: DATASETS,
  tag: "datasets",
  summary: "Create an empty dataset (version 0)",
  subject: subjects.datasets.create,
  access: "member",
  params: projectPathSchema,
  body: createDatasetBodySchema,
  bodyExamples: {
    dataset: { summary: "A new dataset", value: { name: "Golden answers", description: "Curated QA pairs" } },
  },
  response: datasetSchema,
  successStatus: 201,
  errors: ["not_found", "conflict"],
});

export const getDataset = defineOperation({
  operationId: "getDataset",
  command: "get",
  method: "GET",
  path: DATASET,
  tag: "datasets",
  summary: "One dataset, with its active columns and current version",
  subject: subjects.datasets.get,
  access: "viewer",
  params: datasetPathSchema,
  response: datasetSchema,
  successStatus: 200,
  errors: ["not_found"],
});

export const updateDataset = defineOperation({
  operationId: "updateDataset",
  command: "update",
  method: "PATCH",
  path: DATASET,
  tag: "datasets",
  summary: "Rename or describe a dataset (its slug stays)",
  subject: subjects.datasets.update,
  access: "member",
  params: datasetPathSchema,
  body: updateDatasetBodySchema,
  response: datasetSchema,
  successStatus: 200,
  errors: ["not_found", "conflict"],
});

export const deleteDataset = defineOperation({
  operationId: "deleteDataset",
  command: "delete",
  method: "DELETE",
  path: DATASET,
  tag: "datasets",
  summary: "Delete a dataset with its rows and history",
  subject: subjects.datasets.delete,
  access: "member",
  params: datasetPathSchema,
  response: null,
  successStatus: 204,
  errors: ["not_found"],
});

export const listDatasetRows = defineOperation({
  operationId: "listDatasetRows",
  command: "list-rows",
  method: "GET",
  path: `${DATASET}/rows`,
  tag: "datasets",
  summary: "List rows, newest first by default; `version` reads the dataset as it was",
  description:
    "The cursor pins the dataset version its first page saw: paging on while others edit returns one consistent snapshot. `search`, `missing` and `present` combine (all must hold), also with `version`; a cursor carries them, and a page asked with a cursor must repeat them. A column named in `missing` or `present` that is unknown or removed is 400 unknown_column.",
  subject: subjects.rows.list,
  access: "viewer",
  params: datasetPathSchema,
  query: listRowsQuerySchema,
  response: rowPageSchema,
  successStatus: 200,
  errors: ["not_found", "unknown_column"],
  paginated: true,
});

export const getDatasetRow = defineOperation({
  operationId: "getDatasetRow",
  command: "get-row",
  method: "GET",
  path: `${DATASET}/rows/{rowId}`,
  tag: "datasets",
  summary: "One row; `version` reads it as it was",
  subject: subjects.rows.get,
  access: "viewer",
  params: rowPathSchema,
  query: getRowQuerySchema,
  response: datasetRowSchema,
  successStatus: 200,
  errors: ["not_found"],
});

export const insertDatasetRows = defineOperation({
  operationId: "insertDatasetRows",
  command: "insert-rows",
  method: "POST",
  path: `${DATASET}/rows`,
  tag: "datasets",
  summary: "Insert 1-1000 rows as one new dataset version",
  description:
    "A row without `id` gets a generated one. Ids must be unique within the request (400 validation_failed naming the id that repeats); an id that a row of the dataset already has is 409 conflict, and nothing is written.",
  subject: subjects.rows.insert,
  access: "member",
  params: datasetPathSchema,
  body: insertRowsBodySchema,
  bodyExamples: {
    rows: {
      summary: "Two rows, one with a chosen id",
      value: {
        rows: [
          { id: "q-001", input: { question: "Capital of France?" }, expectedOutput: "Paris" },
          { input: "Hello", output: "Hi!" },
        ],
      },
    },
  },
  response: insertRowsResultSchema,
  successStatus: 201,
  errors: ["not_found", "conflict", "unknown_column"],
});

export const updateDatasetRow = defineOperation({
  operationId: "updateDatasetRow",
  command: "update-row",
  method: "PATCH",
  path: `${DATASET}/rows/{rowId}`,
  tag: "datasets",
  summary: "Edit a row's cells; only the cells present change, and the edit is one new dataset version",
  description:
    "`input`, `output`, `expectedOutput` and `metadata` replace that cell (`null` sets it to null). `custom` is merged onto the row's custom cells by column identifier; identifiers left out are untouched. `If-Match: <version>` applies the edit only if the row's current version equals it.",
  subject: subjects.rows.update,
  access: "member",
  params: rowPathSchema,
  body: updateRowBodySchema,
  bodyExamples: {
    expectedOutput: {
      summary: "Replace one built-in cell",
      value: { expectedOutput: { answer: "Paris" } },
    },
    custom: {
      summary: "Merge custom cells by column identifier; the others stay",
      value: { custom: { k3v0q2m9w8x7y6z5a4b3c2d1: "reviewed" }, metadata: null },
    },
  },
  headers: ifMatchSchema,
  headerDescriptions: {
    "If-Match":
      "Apply the change only if the row's current version equals this one; otherwise 412 version_mismatch",
  },
  response: versionResultSchema,
  successStatus: 200,
  errors: ["not_found", "unknown_column", "version_mismatch"],
  // Each call is one more dataset version, even with the same cells.
  effect: { idempotent: false },
});

export const updateDatasetRows = defineOperation({
  operationId: "updateDatasetRows",
  command: "update-rows",
  method: "PATCH",
  path: `${DATASET}/rows`,
  tag: "datasets",
  summary: "Edit 1-1000 rows as one new dataset version, all or nothing",
  description:
    "Each edit names a row and the cells to change, as the row edit does: `input`, `output`, `expectedOutput` and `metadata` replace that cell, `custom` is merged by column identifier. `ifMatch` applies the whole batch only if that row's current version equals it. A row may appear once. Only cells whose value differs from the current one change; a batch that changes nothing makes no version (`versionId: null`). An error names the edit's index and its row, and nothing is written.",
  subject: subjects.rows.updateMany,
  access: "member",
  params: datasetPathSchema,
  body: updateRowsBodySchema,
  bodyExamples: {
    edits: {
      summary: "Fill in two expected outputs, one only if the row is still at version 7",
      value: {
        edits: [
          { rowId: "q-001", expectedOutput: "Paris" },
          { rowId: "q-002", ifMatch: 7, expectedOutput: { answer: 4 }, metadata: { reviewed: true } },
        ],
      },
    },
  },
  response: updateRowsResultSchema,
  successStatus: 200,
  errors: ["not_found", "unknown_column", "version_mismatch"],
});

export const deleteDatasetRows = defineOperation({
  operationId: "deleteDatasetRows",
  command: "delete-rows",
  method: "DELETE",
  path: `${DATASET}/rows`,
  tag: "datasets",
  summary: "Delete the selected rows, all rows, or all except some, as one new dataset version",
  subject: subjects.rows.delete,
  access: "member",
  params: datasetPathSchema,
  body: deleteRowsBodySchema,
  bodyExamples: {
    selected: { summary: "Delete some rows", value: { selection: { mode: "selected", rowIds: ["q-001"] } } },
    all: { summary: "Delete every row", value: { selection: { mode: "all" } } },
  },
  response: deleteRowsResultSchema,
  successStatus: 200,
  errors: ["not_found"],
});

export const copyDatasetRows = defineOperation({
  operationId: "copyDatasetRows",
  command: "copy-rows",
  method: "POST",
  path: `${DATASET}/rows/copy`,
  tag: "datasets",
  summary: "Copy rows into another dataset of the organisation, as one new version of the target",
  description:
    "Selects rows of this dataset at its current version (selected ids, all except some, all, or a list filter) and inserts copies with new ids into the target, all or nothing. Custom cells go to the target's column of the same name unless `columnMap` says otherwise; each copy's `metadata` gets `copiedFrom: {projectSlug, datasetSlug, datasetId, rowId, version}` (a metadata cell that is not an object moves to `metadata.value`). A selection that matches nothing makes no version (200, `versionId: null`).",
  subject: subjects.rows.copy,
  access: "member",
  params: datasetPathSchema,
  body: copyRowsBodySchema,
  bodyExamples: {
    selected: {
      summary: "Copy two rows into another dataset",
      value: {
        to: { datasetSlug: "golden-answers" },
        selection: { mode: "selected", rowIds: ["q-001", "q-002"] },
      },
    },
    filter: {
      summary: "Copy every row with an expected output, leaving one column out",
      value: {
        to: { projectSlug: "support-bot", datasetSlug: "regression" },
        selection: { mode: "filter", present: ["expectedOutput"] },
        columnMap: { k3v0q2m9w8x7y6z5a4b3c2d1: null },
      },
    },
  },
  response: copyRowsResultSchema,
  successStatus: 201,
  errors: ["not_found", "unknown_column", "conflict"],
});

export const exportDataset = defineOperation({
  operationId: "exportDataset",
  command: "export",
  method: "GET",
  path: `${DATASET}/export`,
  tag: "datasets",
  summary: "The dataset as a CSV, JSONL or Parquet file, at its current version or any earlier one",
  description:
    'Streamed, and one consistent snapshot however long it takes: the version is fixed when the export starts (`X-Svc-Version` says which). CSV: a header row, then one line per row (CRLF, RFC 4180); the first column `id` is the row id, then one column per active column in display order, headed by its display name (a custom column named like a built-in field or `id` gets its identifier appended in parentheses); `X-Svc-Columns` gives each header\'s column identifier as a JSON object. A field is empty for a null cell, a string as itself unless it is empty or reads as JSON (then it is written as a JSON string, such as `"42"`), and any other value as its JSON. JSONL: one object per row, `{rowId, input, output, expectedOutput, metadata, custom}` with custom cells by column identifier. Parquet: a string column `id`, then one column per active column headed as in CSV, each of logical type JSON (a cell holds any JSON value), null for a null cell. Imported back with `mode=update`, an export changes nothing.',
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
        description: "CSV only: each header of the file and the identifier of its column, as a JSON object",
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
  description:
    "The body is the file, up to 1 GiB, its Content-Type naming the format: text/csv (RFC 4180 with a header row), application/x-ndjson (one JSON object per line), application/json (an array of objects) or application/vnd.apache.parquet (each row an object; 64-bit integers beyond 2^53 as digit strings, times as ISO-8601, binary as base64, lists and structs as JSON, a column of logical type JSON as its value, and a null as no value, like an empty CSV field; details.line of a bad row is its number in the file). The answer (202, with Location) is the import as it starts; poll it until its state is succeeded or failed. The whole file is one version (operation import), all or nothing: a bad line fails the import with details.line and writes nothing. In a CSV field, JSON (an object, array, number, true, false, null or a quoted string) is that value, other text is a string, and an empty field gives no value (null on insert, unchanged on update). mode=update keys each line by its row id and changes only the cells that differ; a file that changes nothing makes no version.",
  subject: subjects.imports.start,
  access: "member",
  params: datasetPathSchema,
  query: importQuerySchema,
  response: importSchema,
  upload: { mediaTypes: importMediaTypes },
  successStatus: 202,
  errors: ["not_found", "unknown_column", "conflict", "payload_too_large", "unsupported_media_type"],
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

export const getDatasetRowHistory = defineOperation({
  operationId: "getDatasetRowHistory",
  command: "row-history",
  method: "GET",
  path: `${DATASET}/rows/{rowId}/history`,
  tag: "datasets",
  summary: "Every version of one row, newest first",
  subject: subjects.rows.history,
  access: "viewer",
  params: rowPathSchema,
  query: paginationQuerySchema,
  response: rowHistoryPageSchema,
  successStatus: 200,
  errors: ["not_found"],
  paginated: true,
});

export const listDatasetColumns = defineOperation({
  operationId: "listDatasetColumns",
  command: "list-columns",
  method: "GET",
  path: `${DATASET}/columns`,
  tag: "datasets",
  summary: "Ordered columns, built-in then custom as ordered; `includeRemoved=true` adds removed ones",
  subject: subjects.columns.list,
  access: "viewer",
  params: datasetPathSchema,
  query: listColumnsQuerySchema,
  response: columnListSchema,
  successStatus: 200,
  errors: ["not_found"],
});

export const createDatasetColumn = defineOperation({
  operationId: "createDatasetColumn",
  command: "create-column",
  method: "POST",
  path: `${DATASET}/columns`,
  tag: "datasets",
  summary: "Add a custom column; its identifier never changes",
  subject: subjects.columns.create,
  access: "member",
  params: datasetPathSchema,
  body: createColumnBodySchema,
  response: datasetColumnSchema,
  successStatus: 201,
  errors: ["not_found", "conflict"],
});

export const updateDatasetColumn = defineOperation({
  operationId: "updateDatasetColumn",
  command: "update-column",
  method: "PATCH",
  path: `${DATASET}/columns/{identifier}`,
  tag: "datasets",
  summary: "Rename a column, built-in or custom; the identifier never changes",
  subject: subjects.columns.rename,
  access: "member",
  params: columnPathSchema,
  body: renameColumnBodySchema,
  response: datasetColumnSchema,
  successStatus: 200,
  errors: ["not_found", "conflict"],
});

export const deleteDatasetColumn = defineOperation({
  operationId: "deleteDatasetColumn",
  command: "delete-column",
  method: "DELETE",
  path: `${DATASET}/columns/{identifier}`,
  tag: "datasets",
  summary: "Remove a column (soft: its data is kept, but no longer accepted or shown)",
  subject: subjects.columns.remove,
  access: "member",
  params: columnPathSchema,
  response: null,
  successStatus: 204,
  errors: ["not_found"],
});

export const restoreDatasetColumn = defineOperation({
  operationId: "restoreDatasetColumn",
  command: "restore-column",
  method: "POST",
  path: `${DATASET}/columns/{identifier}/restore`,
  tag: "datasets",
  summary: "Bring a removed column back, with its data",
  subject: subjects.columns.restore,
  access: "member",
  params: columnPathSchema,
  response: datasetColumnSchema,
  successStatus: 200,
  errors: ["not_found", "conflict"],
  // Overwrites nothing, and a column brought back stays back.
  effect: { idempotent: true },
});

export const reorderDatasetColumns = defineOperation({
  operationId: "reorderDatasetColumns",
  command: "reorder-columns",
  method: "POST",
  path: `${DATASET}/columns/reorder`,
  tag: "datasets",
  summary: "Set the left-to-right order of the active columns (list every active identifier once)",
  subject: subjects.columns.reorder,
  access: "member",
  params: datasetPathSchema,
  body: reorderColumnsBodySchema,
  response: columnListSchema,
  successStatus: 200,
  errors: ["not_found"],
  // Replaces the order, with the same result however often.
  effect: { destructive: true, idempotent: true },
});

export const listDatasetVersions = defineOperation({
  operationId: "listDatasetVersions",
  command: "list-versions",
  method: "GET",
  path: `${DATASET}/versions`,
  tag: "datasets",
  summary: "List the dataset's versions, newest first",
  subject: subjects.versions.list,
  access: "viewer",
  params: datasetPathSchema,
  query: paginationQuerySchema,
  response: versionPageSchema,
  successStatus: 200,
  errors: ["not_found"],
  paginated: true,
});

export const getDatasetVersion = defineOperation({
  operationId: "getDatasetVersion",
  command: "get-version",
  method: "GET",
  path: `${DATASET}/versions/{version}`,
  tag: "datasets",
  summary: "One dataset version: what it did, how many rows, and who",
  subject: subjects.versions.get,
  access: "viewer",
  params: versionPathSchema,
  response: datasetVersionSchema,
  successStatus: 200,
  errors: ["not_found"],
});

export const diffDatasetVersions = defineOperation({
  operationId: "diffDatasetVersions",
  command: "diff",
  method: "GET",
  path: `${DATASET}/diff`,
  tag: "datasets",
  summary: "Every row that differs between versions `from` and `to`, cell by cell, ordered by row id",
  description:
    "Costs what changed between the two versions, not the size of the dataset or its later history. `from` must not be greater than `to`; both must exist.",
  subject: subjects.versions.diff,
  access: "viewer",
  params: datasetPathSchema,
  query: diffQuerySchema,
  response: diffPageSchema,
  successStatus: 200,
  errors: ["not_found"],
  paginated: true,
});

export const restoreDatasetVersion = defineOperation({
  operationId: "restoreDatasetVersion",
  command: "restore-version",
  method: "POST",
  path: `${DATASET}/versions/{version}/restore`,
  tag: "datasets",
  summary: "Make the dataset equal to an earlier version again, as one new version",
  description:
    "Rows, cells and deletions return to what they were at that version; only rows that differ get a new revision, and the answer is `201` with the new version. Version 0 is the empty dataset every dataset starts as: restoring it deletes every row (a dataset still at version 0 has nothing to restore: `404`). Restoring the version the dataset is already at changes nothing and creates nothing: it answers `200` (not `201`) with the current `{versionId, version}`.",
  subject: subjects.versions.restore,
  access: "member",
  params: versionPathSchema,
  response: versionResultSchema,
  successStatus: 201,
  errors: ["not_found"],
  // Replaces the current data; a second call makes yet another version.
  effect: { destructive: true },
});
