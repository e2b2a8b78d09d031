import { paginationQuerySchema } from "../../schemas/common";
import {
  datasetPathSchema,
  datasetVersionSchema,
  diffPageSchema,
  diffQuerySchema,
  versionPageSchema,
  versionPathSchema,
} from "../../schemas/datasets";
import { versionResultSchema } from "../../schemas/row-edits";
import { subjects } from "../../subjects";
import { defineOperation } from "../define";
import { DATASET } from "./paths";

/* A dataset's versions: list, read, compare, restore. */

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
  errors: ["not_found", "conflict"],
  // Replaces the current data; a second call makes yet another version.
  effect: { destructive: true },
});
