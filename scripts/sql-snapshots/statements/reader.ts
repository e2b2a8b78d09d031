import * as readerColumns from "../../../services/reader/src/repositories/columns";
import * as readerDatasets from "../../../services/reader/src/repositories/datasets";
import * as diff from "../../../services/reader/src/repositories/diff";
import * as exportRows from "../../../services/reader/src/repositories/export-rows";
import * as readerImports from "../../../services/reader/src/repositories/imports";
import * as rowCounts from "../../../services/reader/src/repositories/row-counts";
import * as readerRows from "../../../services/reader/src/repositories/rows";
import * as spans from "../../../services/reader/src/repositories/spans";
import * as traceGroups from "../../../services/reader/src/repositories/trace-groups";
import * as traceMetrics from "../../../services/reader/src/repositories/trace-metrics";
import * as versions from "../../../services/reader/src/repositories/versions";
import { recordedCopy, snapshotOf } from "../render";
import { presence, search } from "./values";

export const reader = [
  snapshotOf({
    source: "services/reader/src/repositories/columns.ts",
    module: readerColumns,
    statements: {
      listColumns: [
        { variant: "active", run: (db) => readerColumns.listColumns(db, "ds_1", { includeRemoved: false }) },
        {
          variant: "removed ones included",
          run: (db) => readerColumns.listColumns(db, "ds_1", { includeRemoved: true }),
        },
      ],
      listActiveColumnsByDataset: [
        { run: (db) => readerColumns.listActiveColumnsByDataset(db, ["ds_1", "ds_2"]) },
      ],
    },
  }),
  snapshotOf({
    source: "services/reader/src/repositories/datasets.ts",
    module: readerDatasets,
    statements: {
      listDatasets: [
        {
          variant: "first page by name",
          run: (db) =>
            readerDatasets.listDatasets(db, {
              projectId: "prj_1",
              sortBy: "name",
              direction: "asc",
              after: undefined,
              limit: 51,
            }),
        },
        {
          variant: "next page by name",
          run: (db) =>
            readerDatasets.listDatasets(db, {
              projectId: "prj_1",
              sortBy: "name",
              direction: "asc",
              after: { value: "tickets", id: "ds_1" },
              limit: 51,
            }),
        },
        {
          variant: "next page, most recently updated first",
          run: (db) =>
            readerDatasets.listDatasets(db, {
              projectId: "prj_1",
              sortBy: "updatedAt",
              direction: "desc",
              after: { value: "2025-01-02T03:04:05.123456Z", id: "ds_1" },
              limit: 51,
            }),
        },
      ],
    },
  }),
  snapshotOf({
    source: "services/reader/src/repositories/diff.ts",
    module: diff,
    statements: {
      listChangedRows: [
        {
          run: (db) =>
            diff.listChangedRows(db, { datasetId: "ds_1", from: 5, to: 9, afterRowId: "r_1", limit: 101 }),
        },
      ],
    },
  }),
  snapshotOf({
    source: "services/reader/src/repositories/export-rows.ts",
    module: exportRows,
    statements: {
      copyExportedRows: [
        {
          variant: "a later page, built-in and custom cells",
          run: (db) =>
            exportRows.copyExportedRows(
              db,
              recordedCopy(db),
              {
                datasetId: "ds_1",
                version: 5,
                after: { createdAt: "2025-01-02T03:04:05.123456Z", rowId: "r_1" },
                limit: 2000,
                cells: [
                  { kind: "builtin", field: "input" },
                  { kind: "builtin", field: "expectedOutput" },
                  { kind: "custom", identifier: "col_1" },
                ],
              },
              () => undefined,
            ),
        },
      ],
    },
    noStatement: { LastRowKey: "keeps a row's key aside as it is read" },
  }),
  snapshotOf({
    source: "services/reader/src/repositories/imports.ts",
    module: readerImports,
    statements: {
      findOptionalImport: [{ run: (db) => readerImports.findOptionalImport(db, "ds_1", "imp_1") }],
    },
  }),
  snapshotOf({
    source: "services/reader/src/repositories/rows.ts",
    module: readerRows,
    statements: {
      listCurrentRows: [
        {
          variant: "first page",
          run: (db) =>
            readerRows.listCurrentRows(db, {
              datasetId: "ds_1",
              version: 5,
              direction: "asc",
              after: undefined,
              limit: 51,
              search: undefined,
            }),
        },
        {
          variant: "next page of a search",
          run: (db) =>
            readerRows.listCurrentRows(db, {
              datasetId: "ds_1",
              version: 5,
              direction: "asc",
              after: { createdAt: "2025-01-02T03:04:05.123456Z", rowId: "r_1" },
              limit: 51,
              search,
            }),
        },
        {
          variant: "a jump to a position, newest first, with cell conditions",
          run: (db) =>
            readerRows.listCurrentRows(db, {
              datasetId: "ds_1",
              version: 5,
              direction: "desc",
              after: undefined,
              offset: 500,
              limit: 51,
              search: undefined,
              presence,
            }),
        },
      ],
      listRowsAtVersion: [
        {
          variant: "next page of a search",
          run: (db) =>
            readerRows.listRowsAtVersion(db, {
              datasetId: "ds_1",
              version: 5,
              direction: "asc",
              after: { createdAt: "2025-01-02T03:04:05.123456Z", rowId: "r_1" },
              limit: 51,
              search,
            }),
        },
        {
          variant: "a jump to a position, with cell conditions",
          run: (db) =>
            readerRows.listRowsAtVersion(db, {
              datasetId: "ds_1",
              version: 5,
              direction: "asc",
              after: undefined,
              offset: 500,
              limit: 51,
              search: undefined,
              presence,
            }),
        },
      ],
      findOptionalCurrentRow: [{ run: (db) => readerRows.findOptionalCurrentRow(db, "ds_1", "r_1", 5) }],
      findOptionalRowAtVersion: [{ run: (db) => readerRows.findOptionalRowAtVersion(db, "ds_1", "r_1", 5) }],
      listRowRevisions: [
        {
          run: (db) =>
            readerRows.listRowRevisions(db, { datasetId: "ds_1", rowId: "r_1", before: 9, limit: 21 }),
        },
      ],
    },
    noStatement: {
      afterKey: "a condition, snapshotted in listCurrentRows, listRowsAtVersion and listExportedRows",
      filtered: "conditions, snapshotted in listCurrentRows, listRowsAtVersion and the row counts",
    },
  }),
  snapshotOf({
    source: "services/reader/src/repositories/row-counts.ts",
    module: rowCounts,
    statements: {
      countMatchingRows: [
        {
          variant: "the current rows, cell conditions",
          run: (db) =>
            rowCounts.countMatchingRows(db, {
              datasetId: "ds_1",
              version: 8,
              current: true,
              search: undefined,
              presence,
            }),
          answers: [[{ count: "3" }]],
        },
        {
          variant: "a search at an old version",
          run: (db) =>
            rowCounts.countMatchingRows(db, {
              datasetId: "ds_1",
              version: 5,
              current: false,
              search,
              presence: undefined,
            }),
          answers: [[{ count: "3" }]],
        },
      ],
      countChangedMatches: [
        {
          run: (db) =>
            rowCounts.countChangedMatches(db, {
              datasetId: "ds_1",
              from: 5,
              to: 8,
              search: undefined,
              presence,
            }),
          answers: [[{ count: "1" }], [{ count: "2" }]],
        },
      ],
      countRowChanges: [
        {
          run: (db) => rowCounts.countRowChanges(db, { datasetId: "ds_1", from: 5, to: 8 }),
          answers: [[{ changes: "4" }]],
        },
      ],
    },
  }),
  snapshotOf({
    source: "services/reader/src/repositories/spans.ts",
    module: spans,
    statements: {
      listSpans: [{ run: (db) => spans.listSpans(db, "prj_1", "4bf92f3577b34da6a3ce929d0e0e4736") }],
    },
  }),
  snapshotOf({
    source: "services/reader/src/repositories/trace-metrics.ts",
    module: traceMetrics,
    statements: {
      listTraceMetricRows: [
        {
          run: (db) =>
            traceMetrics.listTraceMetricRows(db, {
              projectId: "prj_1",
              width: "hour",
              grouping: "model",
              fromMs: 1735689600000,
              toMs: 1738281600000,
            }),
        },
      ],
    },
  }),
  snapshotOf({
    source: "services/reader/src/repositories/trace-groups.ts",
    module: traceGroups,
    statements: {
      listTraceGroups: [
        {
          variant: "first page of sessions",
          run: (db) =>
            traceGroups.listTraceGroups(db, {
              projectId: "prj_1",
              by: "session_id",
              sortBy: "lastTime",
              sortDirection: "desc",
              limit: 51,
            }),
        },
        {
          variant: "next page of users in a time range, by cost",
          run: (db) =>
            traceGroups.listTraceGroups(db, {
              projectId: "prj_1",
              by: "user_id",
              fromNs: "1735689600000000000",
              toNs: "1738281600000000000",
              sortBy: "costMicrocents",
              sortDirection: "asc",
              after: { value: "4", key: "user-1" },
              limit: 51,
            }),
        },
      ],
    },
  }),
  snapshotOf({
    source: "services/reader/src/repositories/versions.ts",
    module: versions,
    statements: {
      listVersions: [{ run: (db) => versions.listVersions(db, { datasetId: "ds_1", before: 9, limit: 21 }) }],
      findOptionalVersion: [{ run: (db) => versions.findOptionalVersion(db, "ds_1", 5) }],
      listVersionsAfter: [
        {
          run: (db) =>
            versions.listVersionsAfter(db, { datasetId: "ds_1", after: 4, limit: 100, maxRowIds: 100 }),
          answers: [
            [
              {
                id: "v_5",
                version: 5,
                operation: "update",
                rows_inserted: 0,
                rows_updated: 1,
                rows_deleted: 0,
                actor_kind: "apiKey",
                actor_id: "key_1",
                created_at: new Date(0),
              },
            ],
          ],
        },
      ],
    },
  }),
];
