import {
  createDatasetBodySchema,
  datasetPageSchema,
  datasetPathSchema,
  datasetSchema,
  listDatasetsQuerySchema,
  projectPathSchema,
  updateDatasetBodySchema,
} from "../../schemas/datasets";
import { subjects } from "../../subjects";
import { defineOperation } from "../define";
import { DATASET, DATASETS } from "./paths";

/* The datasets of a project: list, create, read, rename, delete. */

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
