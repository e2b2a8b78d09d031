import * as writerImports from "../../../services/dataset-writer/src/repositories/imports";
import { snapshotOf } from "../render";
import { inTransaction } from "./values";

/** The file imports' own statements: the import job, its progress, and the rows it stages. */
export const importsSnapshot = snapshotOf({
  source: "services/dataset-writer/src/repositories/imports.ts",
  module: writerImports,
  statements: {
    insertImport: [
      {
        run: (db) =>
          writerImports.insertImport(db, {
            id: "imp_1",
            organizationId: "org_1",
            datasetId: "ds_1",
            idempotencyKey: "idem_1",
            format: "jsonl",
            mode: "insert",
          }),
      },
    ],
    findImport: [{ run: (db) => writerImports.findImport(db, "org_1", "imp_1"), throws: true }],
    findOptionalImportByKey: [{ run: (db) => writerImports.findOptionalImportByKey(db, "org_1", "idem_1") }],
    releaseInterruptedKey: [{ run: (db) => writerImports.releaseInterruptedKey(db, "org_1", "idem_1") }],
    recordProgress: [
      { run: (db) => writerImports.recordProgress(db, "imp_1", { bytesRead: 4096, rowsRead: 20 }) },
    ],
    finishImport: [
      {
        variant: "succeeded",
        run: (db) =>
          writerImports.finishImport(
            db,
            "imp_1",
            { state: "succeeded", versionId: "ver_1", version: 9, rowsInserted: 20, rowsUpdated: 0 },
            { bytesRead: 4096, rowsRead: 20 },
          ),
      },
      {
        variant: "failed",
        run: (db) =>
          writerImports.finishImport(
            db,
            "imp_1",
            { state: "failed", error: { code: "validation_failed", error: "Line 3 is not JSON" } },
            { bytesRead: 4096, rowsRead: 2 },
          ),
      },
    ],
    failAbandonedImports: [{ run: (db) => writerImports.failAbandonedImports(db, 60_000) }],
    stageRows: [
      {
        run: (db) =>
          writerImports.stageRows(db, "imp_1", [
            { seq: 0, line: 1, rowId: "r_1", cells: { input: "hi" }, custom: { c_1: 5 } },
          ]),
      },
    ],
    deleteStagedRows: [{ run: (db) => writerImports.deleteStagedRows(db, "imp_1") }],
    findOptionalRepeatedRowId: [{ run: (db) => writerImports.findOptionalRepeatedRowId(db, "imp_1") }],
    listStagedRows: [
      { variant: "existing", run: (db) => writerImports.listStagedRows(db, "imp_1", "ds_1", "existing") },
      { variant: "missing", run: (db) => writerImports.listStagedRows(db, "imp_1", "ds_1", "missing") },
    ],
    markPendingImport: [
      {
        run: (db) => inTransaction(db, (trx) => writerImports.markPendingImport(trx, "ds_1", "imp_1")),
        answers: [
          [{ pending_import_id: null, current_version: 8 }],
          [{ started_at: "2025-01-02T03:04:05.123456Z" }],
        ],
      },
    ],
    endReusedTombstones: [
      { run: (db) => inTransaction(db, (trx) => writerImports.endReusedTombstones(trx, "imp_1", "ds_1", 9)) },
    ],
    insertStagedPiece: [
      {
        run: (db) =>
          writerImports.insertStagedPiece(db, {
            importId: "imp_1",
            datasetId: "ds_1",
            version: 9,
            base: "2025-01-02T03:04:05.123456Z",
            fromSeq: 1,
            toSeq: 201,
          }),
      },
    ],
    finishPendingImport: [
      {
        run: (db) => inTransaction(db, (trx) => writerImports.finishPendingImport(trx, "ds_1", "imp_1")),
      },
    ],
    undoPendingImport: [{ run: (db) => writerImports.undoPendingImport(db, "ds_1", "imp_1") }],
    listAbandonedHolds: [{ run: (db) => writerImports.listAbandonedHolds(db) }],
  },
  noStatement: { copyStagedRows: "a COPY FROM STDIN with a fixed text, sent through the pool" },
});
