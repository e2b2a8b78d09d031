import * as columns from "../../../services/experiments/src/repositories/columns";
import * as compare from "../../../services/experiments/src/repositories/compare";
import * as experiments from "../../../services/experiments/src/repositories/experiments";
import * as results from "../../../services/experiments/src/repositories/results";
import { snapshotOf } from "../render";
import { actor, at, inTransaction } from "./values";

const pinned = { experimentId: "exp_2", datasetId: "ds_1", version: 8 };
const experimentRow = {
  id: "exp_2",
  organization_id: "org_1",
  dataset_id: "ds_1",
  name: "baseline",
  version: 8,
  base_experiment_id: null,
  metadata: null,
  status: "running",
  evaluators: [],
  row_count: 3,
  actor_kind: "apiKey",
  actor_id: "key_1",
  created_at: at,
  finished_at: null,
};
const ref = { organizationId: "org_1", projectSlug: "support", experimentId: "exp_2" };
const result = {
  rowId: "r_1",
  rowVersion: 7,
  output: "4",
  traceId: null,
  latencyMs: 812,
  tokens: 153,
  costMicrocents: 400,
  error: null,
};
const score = { rowId: "r_1", name: "exact", value: true, source: "rule", comment: null, actor } as const;
const pair = { datasetId: "ds_1", a: { id: "exp_1", version: 5 }, b: { id: "exp_2", version: 8 } };
const comparisonKey = { aId: "exp_1", bId: "exp_2", aRevision: "12", bRevision: "3" };

export const experimentsService = [
  snapshotOf({
    source: "services/experiments/src/repositories/columns.ts",
    module: columns,
    statements: { listActiveColumns: [{ run: (db) => columns.listActiveColumns(db, "ds_1") }] },
  }),
  snapshotOf({
    source: "services/experiments/src/repositories/compare.ts",
    module: compare,
    statements: {
      listExperimentRevisions: [{ run: (db) => compare.listExperimentRevisions(db, ["exp_1", "exp_2"]) }],
      bumpExperimentRevision: [
        { run: (db) => inTransaction(db, (trx) => compare.bumpExperimentRevision(trx, "exp_2")) },
      ],
      findOptionalComparison: [{ run: (db) => compare.findOptionalComparison(db, comparisonKey) }],
      insertComparison: [
        {
          run: (db) => inTransaction(db, (trx) => compare.insertComparison(trx, comparisonKey)),
          answers: [[{ id: "7" }]],
        },
      ],
      buildComparison: [
        {
          run: (db) => inTransaction(db, (trx) => compare.buildComparison(trx, "7", pair)),
          answers: [[], [], [], [], []],
        },
      ],
      listComparedRows: [
        {
          variant: "a later page of regressions",
          run: (db) =>
            compare.listComparedRows(db, "7", {
              after: { rank: 0, rowId: "r_1" },
              limit: 51,
              change: "regressed",
            }),
        },
      ],
    },
  }),
  snapshotOf({
    source: "services/experiments/src/repositories/experiments.ts",
    module: experiments,
    statements: {
      insertExperiment: [
        {
          run: (db) =>
            experiments.insertExperiment(db, {
              id: "exp_2",
              organizationId: "org_1",
              datasetId: "ds_1",
              name: "baseline",
              version: 8,
              baseExperimentId: "exp_1",
              metadata: { model: "m1" },
              evaluators: [{ name: "exact", kind: "exact_match", caseSensitive: true, trim: false }],
              rowCount: 3,
              actor,
            }),
          answers: [[experimentRow]],
        },
      ],
      findOptionalExperiment: [
        { run: (db) => experiments.findOptionalExperiment(db, ref) },
        {
          variant: "locked while results are recorded",
          run: (db) =>
            inTransaction(db, (trx) => experiments.findOptionalExperiment(trx, ref, { lock: "share" })),
        },
      ],
      findOptionalExperimentById: [
        { run: (db) => experiments.findOptionalExperimentById(db, "org_1", "exp_1") },
      ],
      findExperiment: [
        {
          variant: "locked to finish it",
          run: (db) => inTransaction(db, (trx) => experiments.findExperiment(trx, ref, { lock: "update" })),
          answers: [[experimentRow]],
        },
      ],
      listExperiments: [
        {
          run: (db) =>
            experiments.listExperiments(db, {
              datasetId: "ds_1",
              after: { createdAt: "2025-01-02T03:04:05.000000Z", id: "exp_1" },
              limit: 51,
            }),
        },
      ],
      updateExperiment: [
        {
          run: (db) => experiments.updateExperiment(db, "exp_2", { name: "final", finish: true }),
          answers: [[experimentRow]],
        },
      ],
      deleteExperiment: [{ run: (db) => experiments.deleteExperiment(db, "exp_2") }],
      listExperimentTotals: [{ run: (db) => experiments.listExperimentTotals(db, ["exp_1", "exp_2"]) }],
    },
    noStatement: {
      experimentNotFound: "builds the not-found error",
      storedScoreValue: "maps a score to its columns",
      scoreValueOf: "maps a score's columns to its value",
    },
  }),
  snapshotOf({
    source: "services/experiments/src/repositories/results.ts",
    module: results,
    statements: {
      listPinnedRows: [{ run: (db) => results.listPinnedRows(db, pinned, ["r_1", "r_2"]) }],
      listPendingRows: [
        { run: (db) => results.listPendingRows(db, pinned, { afterRowId: "r_1", limit: 51 }) },
      ],
      upsertResults: [
        { run: (db) => inTransaction(db, (trx) => results.upsertResults(trx, "exp_2", [result])) },
      ],
      deleteRowScores: [
        { run: (db) => inTransaction(db, (trx) => results.deleteRowScores(trx, "exp_2", ["r_1"])) },
      ],
      upsertScores: [
        { run: (db) => inTransaction(db, (trx) => results.upsertScores(trx, "exp_2", [score])) },
      ],
      listRowsWithResults: [{ run: (db) => results.listRowsWithResults(db, "exp_2", ["r_1"]) }],
      carryResults: [{ run: (db) => inTransaction(db, (trx) => results.carryResults(trx, pinned, "exp_1")) }],
      carryScores: [
        { run: (db) => inTransaction(db, (trx) => results.carryScores(trx, "exp_2", "exp_1", ["exact"])) },
      ],
      listResultsToScore: [
        { run: (db) => results.listResultsToScore(db, pinned, { afterRowId: "r_1", limit: 1000 }) },
      ],
      listResults: [
        {
          variant: "failed ones",
          run: (db) =>
            results.listResults(db, pinned, { afterRowId: undefined, limit: 51, filter: { errored: true } }),
        },
        {
          variant: "a score below a value",
          run: (db) =>
            results.listResults(db, pinned, {
              afterRowId: "r_1",
              limit: 51,
              filter: { below: { score: "exact", value: 1 } },
            }),
        },
      ],
      listResultsOfRows: [{ run: (db) => results.listResultsOfRows(db, pinned, ["r_1", "r_2"]) }],
      listScoresOfRows: [{ run: (db) => results.listScoresOfRows(db, "exp_2", ["r_1", "r_2"]) }],
    },
  }),
];
