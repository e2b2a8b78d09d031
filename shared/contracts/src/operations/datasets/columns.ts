import {
  columnListSchema,
  columnPathSchema,
  createColumnBodySchema,
  datasetColumnSchema,
  datasetPathSchema,
  listColumnsQuerySchema,
  MAX_CUSTOM_COLUMNS,
  renameColumnBodySchema,
  reorderColumnsBodySchema,
} from "../../schemas/datasets";
import { subjects } from "../../subjects";
import { defineOperation } from "../define";
import { DATASET } from "./paths";

/* A dataset's custom columns. */

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
  description: `A dataset has at most ${MAX_CUSTOM_COLUMNS} active custom columns; one more is 400 too_many_columns (details.limit), and a removed column can be restored only while there is room.`,
  subject: subjects.columns.create,
  access: "member",
  params: datasetPathSchema,
  body: createColumnBodySchema,
  response: datasetColumnSchema,
  successStatus: 201,
  errors: ["not_found", "conflict", "too_many_columns"],
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
  errors: ["not_found", "conflict", "too_many_columns"],
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
