import * as sharedDatasets from "../../../shared/db/src/datasets";
import * as idempotency from "../../../shared/db/src/idempotency";
import * as revisions from "../../../shared/db/src/revisions";
import * as traceFolds from "../../../shared/db/src/trace-folds";
import * as sharedTraceMetrics from "../../../shared/db/src/trace-metrics";
import * as sharedTraces from "../../../shared/db/src/traces";
import { snapshotOf } from "../render";
import { at, datasetRecordRow, inTransaction, later, ref, scope, spanId, traceId, turn } from "./values";

export const sharedDb = [
  snapshotOf({
    source: "shared/db/src/datasets.ts",
    module: sharedDatasets,
    statements: {
      findOptionalProjectId: [{ run: (db) => sharedDatasets.findOptionalProjectId(db, "org_1", "support") }],
      findProjectId: [
        { run: (db) => sharedDatasets.findProjectId(db, "org_1", "support"), answers: [[{ id: "prj_1" }]] },
      ],
      findDataset: [{ run: (db) => sharedDatasets.findDataset(db, ref), answers: [[datasetRecordRow]] }],
      countRowsAtVersion: [
        { run: (db) => sharedDatasets.countRowsAtVersion(db, "ds_1", 8), answers: [[{ row_count: 3 }]] },
      ],
      findDatasetForUpdate: [
        {
          run: (db) => inTransaction(db, (trx) => sharedDatasets.findDatasetForUpdate(trx, ref)),
          answers: [[datasetRecordRow]],
        },
      ],
    },
    noStatement: {
      datasetNotFound: "builds the not-found error",
      DatasetTakingImport: "the error of a dataset taking an import",
    },
  }),
  snapshotOf({
    source: "shared/db/src/revisions.ts",
    module: revisions,
    statements: {
      closeRevisions: [{ run: (db) => revisions.closeRevisions(db, "ds_1", ["r_1", "r_2"], 9) }],
    },
    noStatement: {
      revisionsAt: "the start of a query, snapshotted in the reader's listRowsAtVersion and listExportedRows",
      liveRowsAt:
        "the start of a query, snapshotted in the reader's listCurrentRows and findOptionalCurrentRow",
      cellsOf: "a piece of statements, snapshotted in the writer's and the reader's repositories",
      cellsFrom: "a piece of statements, snapshotted in the writer's copyRows and insertStagedPiece",
      patchedCells: "a piece of statements, snapshotted in the writer's applyRowChanges and applyEdits",
      cellList: "a piece of statements, snapshotted in the writer's and the reader's repositories",
      cellsAs:
        "a piece of statements, snapshotted in the writer's applyRowChanges, copyRows and insertStagedPiece",
      cellsSet:
        "a piece of statements, snapshotted in the writer's applyRowChanges, applyEdits and restoreRows",
      cellValues: "the values of an insert, snapshotted in the writer's insertRows",
      sourceRow: "a piece of statements, snapshotted in the writer's repositories",
      endLiveRevisions: "a piece of statements, snapshotted in the writer's repositories",
      insertRevisions: "a piece of statements, snapshotted in the writer's repositories",
      insertLiveRows:
        "a piece of statements, snapshotted in the writer's copyRows, insertStagedPiece and restoreRows",
      validAt:
        "a condition, snapshotted in the writer's restoreRows and copyRows and the experiments' statements",
      isValidAt: "the same rule for a revision already read",
      rowCellsOf: "reads a row's cells from the columns a query returned",
    },
  }),
  snapshotOf({
    source: "shared/db/src/idempotency.ts",
    module: idempotency,
    statements: {
      claimIdempotencyKeys: [
        {
          variant: "one key claimed, one taken before",
          run: (db) =>
            inTransaction(db, (trx) =>
              idempotency.claimIdempotencyKeys(trx, [
                scope,
                { ...scope, key: "idem_2", request: { rowId: "r_2" } },
              ]),
            ),
          answers: [[{ organization_id: "org_1", key: "idem_1" }]],
        },
      ],
      storeIdempotentResponses: [
        {
          run: (db) =>
            inTransaction(db, (trx) =>
              idempotency.storeIdempotentResponses(trx, [
                { organizationId: "org_1", key: "idem_1", response: { version: 9 } },
              ]),
            ),
        },
      ],
      releaseIdempotencyKeys: [
        {
          run: (db) =>
            inTransaction(db, (trx) =>
              idempotency.releaseIdempotencyKeys(trx, [{ organizationId: "org_1", key: "idem_1" }]),
            ),
        },
      ],
      runIdempotent: [
        {
          variant: "a new key: claimed, the mutation runs, its answer is stored",
          run: (db) => idempotency.runIdempotent(db, scope, async () => ({ version: 9 })),
          answers: [[{ key: "idem_1" }]],
        },
        {
          variant: "a key used before with another request",
          run: (db) => idempotency.runIdempotent(db, scope, async () => ({ version: 9 })),
          answers: [[], [{ request_hash: "another request", response: null, created_at: at }]],
          throws: true,
        },
      ],
      pruneIdempotencyRecords: [{ run: (db) => idempotency.pruneIdempotencyRecords(db, later) }],
      pruneGatewayIdempotencyRecords: [
        { run: (db) => idempotency.pruneGatewayIdempotencyRecords(db, later) },
      ],
    },
    noStatement: {
      idempotencyOf: "builds a scope from a request",
      idempotencyKeyReused: "builds the conflict error",
      requestHashOf: "hashes a request",
    },
  }),
  snapshotOf({
    source: "shared/db/src/traces.ts",
    module: sharedTraces,
    statements: {
      listTraceRecords: [
        {
          variant: "first page, newest first",
          run: (db) => sharedTraces.listTraceRecords(db, { projectId: "prj_1", limit: 51 }),
        },
        {
          variant: "next page of some traces, with a filter of each kind, by cost",
          run: (db) =>
            sharedTraces.listTraceRecords(db, {
              projectId: "prj_1",
              traceIds: [traceId],
              filters: [
                { field: "traceId", op: "in", value: [traceId] },
                { field: "startTime", op: "gte", value: "1735787045000000000" },
                { field: "errorCount", op: "gt", value: 0 },
                { field: "sessionId", op: "neq", value: "s_1" },
                { field: "rootSpanName", op: "contains", value: "chat" },
                { field: "tags", op: "contains", value: "beta" },
                { field: "models", op: "containsAny", value: ["small", "large"] },
                { field: "text", op: "contains", value: "refund" },
              ],
              sortBy: "costTotalMicrocents",
              sortDirection: "asc",
              after: { value: "4", traceId },
              limit: 51,
            }),
        },
      ],
      countTraceRecords: [
        {
          variant: "every trace, from the hourly metrics",
          run: (db) => sharedTraces.countTraceRecords(db, { projectId: "prj_1" }),
          answers: [[{ total: "0" }]],
        },
        {
          variant: "the traces of a model with errors over whole hours, from the hourly metrics",
          run: (db) =>
            sharedTraces.countTraceRecords(db, {
              projectId: "prj_1",
              filters: [
                { field: "models", op: "contains", value: "small" },
                { field: "errorCount", op: "gt", value: 0 },
                { field: "startTime", op: "gte", value: "1735786800000000000" },
                { field: "startTime", op: "lt", value: "1735790400000000000" },
              ],
            }),
          answers: [[{ total: "0" }]],
        },
        {
          variant: "the traces a filter keeps",
          run: (db) =>
            sharedTraces.countTraceRecords(db, {
              projectId: "prj_1",
              filters: [{ field: "text", op: "contains", value: "50%_off" }],
            }),
          answers: [[{ count: "0" }]],
        },
      ],
    },
    noStatement: { traceFactsOf: "maps the columns of a span's or a trace's row" },
  }),
  snapshotOf({
    source: "shared/db/src/trace-folds.ts",
    module: traceFolds,
    statements: {
      markTraceFolds: [{ run: (db) => traceFolds.markTraceFolds(db, "prj_1", [traceId]) }],
      claimTraceFolds: [{ run: (db) => traceFolds.claimTraceFolds(db, 200) }],
      findOptionalFoldStart: [
        {
          run: (db) => traceFolds.findOptionalFoldStart(db, "prj_1"),
          answers: [[{ now: "2025-05-01T00:00:00.123456Z", waiting: true }]],
        },
      ],
      claimProjectTraceFolds: [
        {
          run: (db) =>
            traceFolds.claimProjectTraceFolds(db, "prj_1", {
              markedBy: "2025-05-01T00:00:00.123456Z",
              limit: 200,
            }),
        },
      ],
      deleteTraceFolds: [{ run: (db) => traceFolds.deleteTraceFolds(db, "prj_1", [traceId]) }],
      listSpanOutlines: [{ run: (db) => traceFolds.listSpanOutlines(db, "prj_1", [traceId]) }],
      listSpanMessages: [{ run: (db) => traceFolds.listSpanMessages(db, "prj_1", [{ traceId, spanId }]) }],
      listTraceMetricFacts: [{ run: (db) => traceFolds.listTraceMetricFacts(db, "prj_1", [traceId]) }],
      updateTraceSummaries: [
        {
          run: (db) =>
            traceFolds.updateTraceSummaries(db, "prj_1", [
              {
                traceId,
                spanCount: 1,
                errorCount: 0,
                startNs: "1735787045000000000",
                endNs: "1735787046000000000",
                durationNs: "1000000000",
                rootSpanId: spanId,
                rootSpanName: "chat",
                ...turn,
                tokensTotal: 42,
                costTotalMicrocents: 4,
              },
            ]),
        },
      ],
      addTraceMetricDeltas: [
        {
          run: (db) =>
            traceFolds.addTraceMetricDeltas(db, "prj_1", [
              {
                width: "minute",
                grouping: "model",
                bucketStart: "2025-01-02T03:04:00.000Z",
                groupValue: "small",
                traces: 1,
                errors: 0,
                tokensInput: 12,
                tokensOutput: 30,
                costMicrocents: 4,
                latency: { "80": 1 },
              },
            ]),
        },
      ],
    },
  }),
  snapshotOf({
    source: "shared/db/src/trace-metrics.ts",
    module: sharedTraceMetrics,
    statements: {
      refillTraceMetrics: [{ run: (db) => sharedTraceMetrics.refillTraceMetrics(db, "prj_1") }],
    },
    noStatement: {
      latencyBucketOf: "computes a histogram bucket",
      latencyOfBucket: "computes a histogram bucket's duration",
      latencyQuantile: "reads a percentile off a histogram",
    },
  }),
];
