import { paginationQuerySchema } from "../schemas/common";
import { datasetPathSchema, rowPageSchema } from "../schemas/datasets";
import {
  comparePageSchema,
  comparePathSchema,
  compareQuerySchema,
  createExperimentBodySchema,
  experimentPageSchema,
  experimentPathSchema,
  experimentSchema,
  listExperimentsQuerySchema,
  listResultsQuerySchema,
  MAX_EXPERIMENT_BATCH,
  recordedSchema,
  recordResultsBodySchema,
  recordScoresBodySchema,
  resultPageSchema,
  updateExperimentBodySchema,
} from "../schemas/experiments";
import { subjects } from "../subjects";
import { DATASET } from "./datasets/paths";
import { defineOperation } from "./define";

/* Experiments: run something over one dataset version, record what it answered, score and compare. */

const EXPERIMENT = "/v1/projects/{projectSlug}/experiments/{experimentId}";

export const createExperiment = defineOperation({
  operationId: "createExperiment",
  command: "create",
  method: "POST",
  path: `${DATASET}/experiments`,
  tag: "experiments",
  summary: "Start an experiment pinned to a dataset version",
  description: [
    "The experiment runs on `version` (default: the dataset's current version) for good: later edits of the dataset do not change what it runs on. Every row of that version is pending until a result is recorded for it.",
    "`evaluators` are checked now: a regex that does not compile (RE2 syntax), a JSON Schema that does not compile, or two evaluators of one name are 400 validation_failed naming the evaluator, and nothing is created.",
    "With `baseExperimentId` (an earlier experiment of the same dataset), the result and scores of every row whose revision is the same at both versions are carried over (`carriedFrom`), and only new and changed rows are pending; the base's rule scores are carried only for evaluators this experiment declares the same way, and this experiment's other rules are applied to the carried results. A base of another dataset is 400 validation_failed.",
  ].join("\n\n"),
  subject: subjects.experiments.create,
  access: "member",
  params: datasetPathSchema,
  body: createExperimentBodySchema,
  bodyExamples: {
    rules: {
      summary: "A run of the current version, scored by two rules",
      value: {
        name: "gpt-4.1 with the new prompt",
        metadata: { model: "gpt-4.1", prompt: "v7" },
        evaluators: [
          { name: "exact", kind: "exact_match", trim: true },
          { name: "similarity", kind: "levenshtein" },
        ],
      },
    },
  },
  response: experimentSchema,
  successStatus: 201,
  errors: ["not_found"],
});

export const listExperiments = defineOperation({
  operationId: "listExperiments",
  command: "list",
  method: "GET",
  path: `${DATASET}/experiments`,
  tag: "experiments",
  summary: "List a dataset's experiments, newest first, each with its score summary",
  subject: subjects.experiments.list,
  access: "viewer",
  params: datasetPathSchema,
  query: listExperimentsQuerySchema,
  response: experimentPageSchema,
  successStatus: 200,
  errors: ["not_found"],
  paginated: true,
});

export const getExperiment = defineOperation({
  operationId: "getExperiment",
  command: "get",
  method: "GET",
  path: EXPERIMENT,
  tag: "experiments",
  summary: "One experiment with its counts and score summary",
  subject: subjects.experiments.get,
  access: "viewer",
  params: experimentPathSchema,
  response: experimentSchema,
  successStatus: 200,
  errors: ["not_found"],
});

export const updateExperiment = defineOperation({
  operationId: "updateExperiment",
  command: "update",
  method: "PATCH",
  path: EXPERIMENT,
  tag: "experiments",
  summary: "Rename an experiment, replace its metadata, or finish it",
  description:
    "`status: finished` ends the experiment: results and scores sent afterwards are 409 conflict. Finishing a finished experiment changes nothing.",
  subject: subjects.experiments.update,
  access: "member",
  params: experimentPathSchema,
  body: updateExperimentBodySchema,
  response: experimentSchema,
  successStatus: 200,
  errors: ["not_found"],
});

export const deleteExperiment = defineOperation({
  operationId: "deleteExperiment",
  command: "delete",
  method: "DELETE",
  path: EXPERIMENT,
  tag: "experiments",
  summary: "Delete an experiment with its results and scores",
  description:
    "Experiments that were started from it as their base keep their carried results; their `baseExperimentId` stays as it was.",
  subject: subjects.experiments.delete,
  access: "member",
  params: experimentPathSchema,
  response: null,
  successStatus: 204,
  errors: ["not_found"],
});

export const listExperimentPendingRows = defineOperation({
  operationId: "listExperimentPendingRows",
  command: "pending",
  method: "GET",
  path: `${EXPERIMENT}/pending`,
  tag: "experiments",
  summary: "Rows of the pinned version without a result yet, with their cells at that version",
  description:
    "In row id order. A runner pages through these, runs its task on each and records the results; a runner that stopped half-way starts again here and does only what is left. Rows recorded while paging drop out of later pages without shifting them.",
  subject: subjects.experiments.pending,
  access: "viewer",
  params: experimentPathSchema,
  query: paginationQuerySchema,
  response: rowPageSchema,
  successStatus: 200,
  errors: ["not_found"],
  paginated: true,
});

export const recordExperimentResults = defineOperation({
  operationId: "recordExperimentResults",
  command: "record-results",
  method: "POST",
  path: `${EXPERIMENT}/results`,
  tag: "experiments",
  summary: `Record 1-${MAX_EXPERIMENT_BATCH} results, all or nothing`,
  description: [
    "A row's new result replaces its old one, with all of the old one's scores. The experiment's rule evaluators score each result as it is recorded (source `rule`); `scores` carries the runner's own (source `code` or `llm`).",
    "A row named twice in one request is 400 validation_failed; a row that is not in the experiment's version is 400 unknown_row (`details.rowIds` names them); a finished experiment is 409 conflict; either way nothing of the request is recorded. Send an `Idempotency-Key` from a runner: a retry then records once.",
  ].join("\n\n"),
  subject: subjects.experiments.recordResults,
  access: "member",
  params: experimentPathSchema,
  body: recordResultsBodySchema,
  bodyExamples: {
    two: {
      summary: "Two results, one with the runner's own score, one failed",
      value: {
        results: [
          {
            rowId: "q1",
            output: { answer: "4" },
            latencyMs: 812,
            tokens: 153,
            scores: [{ name: "helpful", value: true }],
          },
          { rowId: "q2", output: null, error: "The model timed out after 30 s" },
        ],
      },
    },
  },
  response: recordedSchema,
  successStatus: 200,
  errors: ["not_found", "unknown_row", "conflict"],
  effect: { destructive: true, idempotent: true },
});

export const recordExperimentScores = defineOperation({
  operationId: "recordExperimentScores",
  command: "record-scores",
  method: "POST",
  path: `${EXPERIMENT}/scores`,
  tag: "experiments",
  summary: `Add 1-${MAX_EXPERIMENT_BATCH} scores to results, or to the experiment as a whole`,
  description:
    "A score replaces the score of the same name on the same result (or on the experiment, without `rowId`). From a person's session the source is always `human`; a key sends `code` by default. A row without a result is 400 unknown_row; a finished experiment is 409 conflict; nothing of the request is recorded then.",
  subject: subjects.experiments.recordScores,
  access: "member",
  params: experimentPathSchema,
  body: recordScoresBodySchema,
  response: recordedSchema,
  successStatus: 200,
  errors: ["not_found", "unknown_row", "conflict"],
  effect: { destructive: true, idempotent: true },
});

export const listExperimentResults = defineOperation({
  operationId: "listExperimentResults",
  command: "results",
  method: "GET",
  path: `${EXPERIMENT}/results`,
  tag: "experiments",
  summary: "Results in row id order, each with the row's input and expected output at the pinned version",
  description:
    "`errored=true` keeps the failed rows; `score=<name>&below=<n>` (the two go together) keeps the rows whose score of that name is lower than n (a boolean counts as 1 or 0; a row without that score is left out).",
  subject: subjects.experiments.results,
  access: "viewer",
  params: experimentPathSchema,
  query: listResultsQuerySchema,
  response: resultPageSchema,
  successStatus: 200,
  errors: ["not_found"],
  paginated: true,
});

export const compareExperiments = defineOperation({
  operationId: "compareExperiments",
  command: "compare",
  method: "GET",
  path: `${EXPERIMENT}/compare/{otherExperimentId}`,
  tag: "experiments",
  summary: "Compare two experiments of one dataset row by row, regressions first, with a summary",
  description: [
    "`experimentId` is a (the baseline), `otherExperimentId` is b. Each row with a result in either is `regressed` when any numeric or boolean score the two results share is lower in b (higher is better), else `improved` when any is higher, else `same`; `added` has a result only in b, `removed` only in a. Rows come in that order (regressed, improved, added, removed, same), then by row id.",
    "`rowChanged` is true when the row's revision differs between the two experiments' versions: the dataset changed, not only the answer. `summary` covers every row, whatever the page.",
    "Two experiments of different datasets are 400 validation_failed.",
  ].join("\n\n"),
  subject: subjects.experiments.compare,
  access: "viewer",
  params: comparePathSchema,
  query: compareQuerySchema,
  response: comparePageSchema,
  successStatus: 200,
  errors: ["not_found"],
  paginated: true,
});
