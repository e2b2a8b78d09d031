import { paginationQuerySchema } from "../../schemas/common";
import {
  datasetPathSchema,
  datasetRowSchema,
  rowHistoryPageSchema,
  rowPageSchema,
  rowPathSchema,
} from "../../schemas/datasets";
import {
  copyRowsBodySchema,
  copyRowsResultSchema,
  deleteRowsBodySchema,
  deleteRowsResultSchema,
  ifMatchSchema,
  insertRowsBodySchema,
  insertRowsResultSchema,
  updateRowBodySchema,
  updateRowsBodySchema,
  updateRowsResultSchema,
  versionResultSchema,
} from "../../schemas/row-edits";
import {
  countRowsQuerySchema,
  getRowQuerySchema,
  listRowsQuerySchema,
  rowCountSchema,
} from "../../schemas/row-queries";
import { subjects } from "../../subjects";
import { defineOperation } from "../define";
import { DATASET } from "./paths";

/* A dataset's rows: read, insert, edit, delete and copy them; every write is one new dataset version. */

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

export const countDatasetRows = defineOperation({
  operationId: "countDatasetRows",
  command: "count-rows",
  method: "GET",
  path: `${DATASET}/row-count`,
  tag: "datasets",
  summary: "Count the rows a list with these filters holds, exactly; `version` counts the dataset as it was",
  description:
    "Takes the filters of the row list (`search`, `missing`, `present`, `where`) and `version`, and counts every row they let through, not a page. Without filters it is the version's row count. A version never changes, so a count is kept once made, and the count of a later version is worked out from what changed in between: asking again after an edit costs what the edit changed, not the dataset's size. A column named in a filter that is unknown or removed is 400 unknown_column.",
  subject: subjects.rows.count,
  access: "viewer",
  params: datasetPathSchema,
  query: countRowsQuerySchema,
  response: rowCountSchema,
  successStatus: 200,
  errors: ["not_found", "unknown_column"],
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
  errors: ["not_found", "unknown_column", "version_mismatch", "conflict"],
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
  errors: ["not_found", "unknown_column", "version_mismatch", "conflict"],
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
  errors: ["not_found", "conflict"],
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
