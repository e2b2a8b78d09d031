import * as writerColumns from "../../../services/dataset-writer/src/repositories/columns";
import * as writerDatasets from "../../../services/dataset-writer/src/repositories/datasets";
import * as restore from "../../../services/dataset-writer/src/repositories/restore";
import * as rowChanges from "../../../services/dataset-writer/src/repositories/row-changes";
import * as rowCopies from "../../../services/dataset-writer/src/repositories/row-copies";
import * as rowEdits from "../../../services/dataset-writer/src/repositories/row-edits";
import * as writerRows from "../../../services/dataset-writer/src/repositories/rows";
import { snapshotOf } from "../render";
import { importsSnapshot } from "./dataset-writer-imports";
import { actor, at, datasetRow, inTransaction, ref } from "./values";

export const datasetWriter = [
  snapshotOf({
    source: "services/dataset-writer/src/repositories/columns.ts",
    module: writerColumns,
    statements: {
      insertBuiltinColumns: [{ run: (db) => writerColumns.insertBuiltinColumns(db, "ds_1") }],
      listColumns: [{ run: (db) => writerColumns.listColumns(db, "ds_1") }],
      insertCustomColumn: [
        {
          run: (db) =>
            writerColumns.insertCustomColumn(db, { datasetId: "ds_1", identifier: "c_1", name: "Score" }),
        },
      ],
      insertCustomColumns: [
        {
          run: (db) =>
            writerColumns.insertCustomColumns(db, "ds_1", [
              { identifier: "c_1", name: "Score" },
              { identifier: "c_2", name: "Topic" },
            ]),
          answers: [[{ last: 4 }]],
        },
      ],
      updateColumn: [
        {
          variant: "every change at once",
          run: (db) =>
            writerColumns.updateColumn(db, "ds_1", "c_1", { name: "Score", removed: true, position: 2 }),
        },
        {
          variant: "restore",
          run: (db) => writerColumns.updateColumn(db, "ds_1", "c_1", { removed: false }),
        },
      ],
    },
    noStatement: { toContractColumn: "maps a record to the contract's column" },
  }),
  snapshotOf({
    source: "services/dataset-writer/src/repositories/datasets.ts",
    module: writerDatasets,
    statements: {
      takeNextVersion: [
        {
          run: (db) => inTransaction(db, (trx) => writerDatasets.takeNextVersion(trx, ref)),
          answers: [[datasetRow]],
        },
      ],
      changeRowCount: [
        {
          run: (db) => inTransaction(db, (trx) => writerDatasets.changeRowCount(trx, "ds_1", -2)),
          answers: [[{ row_count: 7 }]],
        },
      ],
      existsDatasetSlug: [{ run: (db) => writerDatasets.existsDatasetSlug(db, "prj_1", "tickets") }],
      insertDataset: [
        {
          run: (db) =>
            writerDatasets.insertDataset(db, {
              id: "ds_1",
              organizationId: "org_1",
              projectId: "prj_1",
              slug: "tickets",
              name: "Tickets",
              description: null,
            }),
        },
      ],
      updateDataset: [
        {
          run: (db) =>
            writerDatasets.updateDataset(db, "ds_1", { name: "Tickets", description: "Support tickets" }),
        },
      ],
      touchDataset: [{ run: (db) => writerDatasets.touchDataset(db, "ds_1") }],
      deleteDataset: [{ run: (db) => writerDatasets.deleteDataset(db, "ds_1") }],
      existsDatasetName: [
        { variant: "a new dataset", run: (db) => writerDatasets.existsDatasetName(db, "prj_1", "Tickets") },
        {
          variant: "a rename",
          run: (db) => writerDatasets.existsDatasetName(db, "prj_1", "Tickets", "ds_1"),
        },
      ],
      refreshStatistics: [
        { variant: "the large sample", run: (db) => writerDatasets.refreshStatistics(db) },
        { variant: "the small sample", run: (db) => writerDatasets.refreshStatistics(db, { small: true }) },
      ],
    },
    noStatement: { datasetClashOf: "reads a unique violation's constraint" },
  }),
  importsSnapshot,
  snapshotOf({
    source: "services/dataset-writer/src/repositories/restore.ts",
    module: restore,
    statements: {
      restoreRows: [
        {
          variant: "a row each to delete, to change back and to bring back",
          run: (db) => restore.restoreRows(db, "ds_1", 5, 9),
          answers: [
            [{ row_id: "r_1" }], // gone
            [], // their live revisions end
            [{ count: 1 }], // their tombstones
            [{ row_id: "r_2" }], // updated
            [], // its live revision ends
            [], // its new revision
            [{ row_id: "r_3" }], // inserted
          ],
        },
      ],
      findOptionalVersionId: [{ run: (db) => restore.findOptionalVersionId(db, "ds_1", 5) }],
    },
  }),
  snapshotOf({
    source: "services/dataset-writer/src/repositories/row-changes.ts",
    module: rowChanges,
    statements: {
      findRowVersions: [{ run: (db) => rowChanges.findRowVersions(db, "ds_1", ["r_1", "r_2"]) }],
      applyRowChanges: [
        {
          run: (db) =>
            rowChanges.applyRowChanges(db, "ds_1", 9, [
              { rowId: "r_1", builtins: { output: "refunded" }, custom: { c_1: 5 } },
            ]),
        },
      ],
      applyStagedChanges: [{ run: (db) => rowChanges.applyStagedChanges(db, "imp_1", "ds_1", 9) }],
    },
  }),
  snapshotOf({
    source: "services/dataset-writer/src/repositories/row-copies.ts",
    module: rowCopies,
    statements: {
      listMissingRowIds: [
        {
          run: (db) =>
            rowCopies.listMissingRowIds(db, { datasetId: "ds_1", version: 8, provenance: {} }, [
              "r_1",
              "r_2",
            ]),
        },
      ],
      copyRows: [
        {
          variant: "selected rows that match a search, without expected output",
          run: (db) =>
            rowCopies.copyRows(db, {
              source: { datasetId: "ds_1", version: 8, provenance: { datasetId: "ds_1", version: 8 } },
              selection: { mode: "selected", rowIds: ["r_1", "r_2"] },
              search: { text: "refund", fields: ["input"], customIdentifiers: [] },
              presence: { missing: [], present: [{ kind: "custom", identifier: "c_1" }] },
              fields: ["input", "output", "metadata"],
              customMap: { c_1: "c_9" },
              target: { datasetId: "ds_2", version: 3 },
              idLimit: 100,
            }),
        },
      ],
    },
  }),
  snapshotOf({
    source: "services/dataset-writer/src/repositories/row-edits.ts",
    module: rowEdits,
    statements: {
      applyEdits: [
        {
          variant: "a batch of two edits, one with If-Match",
          run: (db) =>
            rowEdits.applyEdits(db, [
              {
                ref,
                rowId: "r_1",
                ifMatch: 7,
                builtins: { output: "refunded" },
                custom: {},
                versionId: "ver_1",
                actor,
              },
              {
                ref,
                rowId: "r_2",
                ifMatch: undefined,
                builtins: {},
                custom: { c_1: 5 },
                versionId: "ver_2",
                actor,
                idempotency: { key: "gateway 1f0c", operationId: "updateDatasetRow", requestHash: "h_1" },
              },
            ]),
        },
      ],
    },
    noStatement: {
      isKeyTaken: "reads an error",
      isDeadlock: "reads an error",
    },
  }),
  snapshotOf({
    source: "services/dataset-writer/src/repositories/rows.ts",
    module: writerRows,
    statements: {
      listExistingRowIds: [{ run: (db) => writerRows.listExistingRowIds(db, "ds_1", ["r_1", "r_2"]) }],
      insertRows: [
        {
          run: (db) =>
            writerRows.insertRows(db, "ds_1", 9, [
              {
                rowId: "r_1",
                input: "Where is my refund?",
                output: null,
                expectedOutput: "On its way",
                metadata: { lang: "en" },
                custom: { c_1: 5 },
                createdAt: at,
              },
            ]),
        },
      ],
      deleteRowsWithTombstones: [
        {
          variant: "selected rows",
          run: (db) =>
            writerRows.deleteRowsWithTombstones(db, "ds_1", { mode: "selected", rowIds: ["r_1", "r_2"] }, 9),
        },
        {
          variant: "all rows but some",
          run: (db) =>
            writerRows.deleteRowsWithTombstones(db, "ds_1", { mode: "allExcept", rowIds: ["r_3"] }, 9),
        },
        {
          variant: "all rows",
          run: (db) => writerRows.deleteRowsWithTombstones(db, "ds_1", { mode: "all" }, 9),
        },
      ],
      insertVersion: [
        {
          run: (db) =>
            writerRows.insertVersion(db, {
              id: "ver_1",
              datasetId: "ds_1",
              version: 9,
              operation: "delete",
              rowsDeleted: 2,
              rowCount: 7,
              actor,
            }),
        },
      ],
    },
    noStatement: { selectionFilter: "a condition, snapshotted in deleteRowsWithTombstones and copyRows" },
  }),
];
