import {
  type Caller,
  DomainError,
  newId,
  type OperationInput,
  operations,
  type VersionResult,
} from "@svc/contracts";
import { type Database, findDataset, idempotencyOf, runIdempotent } from "@svc/db";
import type { Kysely } from "kysely";
import { listColumns } from "../repositories/columns";
import {
  closeRevisions,
  deleteRowsWithTombstones,
  insertRows as insertRowRecords,
  listExistingRowIds,
  type NewRowRecord,
} from "../repositories/rows";
import { assertCellsAccepted, presentBuiltins } from "./column-check";
import { NothingChanged, refOf, writeVersion } from "./versioning";

export async function insertRows(
  db: Kysely<Database>,
  caller: Caller,
  input: OperationInput<typeof operations.insertDatasetRows>,
): Promise<VersionResult & { rowIds: string[] }> {
  const { params, body } = input;
  const rows = body.rows.map((row) => ({ ...row, rowId: row.id ?? newId() }));
  assertUniqueIds(rows.map((row) => row.rowId));
  return runIdempotent(db, idempotencyOf(caller, operations.insertDatasetRows, input), async (trx) => {
    const { versionId, version } = await writeVersion(trx, caller, params, async (target) => {
      const columns = await listColumns(trx, target.datasetId);
      for (const row of rows) {
        const optional = presentBuiltins(row).filter((field) => field !== "input");
        assertCellsAccepted(columns, optional, Object.keys(row.custom ?? {}));
      }
      const ids = rows.map((row) => row.rowId);
      const taken = await listExistingRowIds(trx, target.datasetId, ids);
      if (taken.length > 0) {
        throw new DomainError(
          "conflict",
          `Rows already exist with these ids: ${taken.slice(0, 10).join(", ")}`,
          {
            rowIds: taken,
          },
        );
      }
      const now = Date.now();
      const records: NewRowRecord[] = rows.map((row, index) => ({
        rowId: row.rowId,
        input: row.input,
        output: row.output ?? null,
        expectedOutput: row.expectedOutput ?? null,
        metadata: row.metadata ?? null,
        custom: row.custom ?? {},
        // Millisecond steps keep the batch in its given order when listed by creation time.
        createdAt: new Date(now + index),
      }));
      // A re-used id of a deleted row ends that row's tombstone before its new life starts.
      await closeRevisions(trx, target.datasetId, ids, target.version);
      await insertRowRecords(trx, target.datasetId, target.version, records);
      return { operation: "insert" as const, rowsInserted: records.length };
    });
    return { versionId, version, rowIds: rows.map((row) => row.rowId) };
  });
}

function assertUniqueIds(ids: readonly string[]): void {
  const seen = new Set<string>();
  const repeated = ids.filter((id) => seen.has(id) || !seen.add(id));
  if (repeated.length > 0) {
    throw new DomainError(
      "validation_failed",
      `Row ids must be unique within a request: "${repeated[0]}" repeats`,
      {
        issues: [{ path: "body.rows", message: `row id "${repeated[0]}" repeats`, code: "custom" }],
      },
    );
  }
}

export async function deleteRows(
  db: Kysely<Database>,
  caller: Caller,
  input: OperationInput<typeof operations.deleteDatasetRows>,
): Promise<{ versionId: string | null; version: number; deletedCount: number }> {
  const { params, body } = input;
  try {
    return await runIdempotent(
      db,
      idempotencyOf(caller, operations.deleteDatasetRows, input),
      async (trx) => {
        const result = await writeVersion(trx, caller, params, async (target) => {
          const deleted = await deleteRowsWithTombstones(
            trx,
            target.datasetId,
            body.selection,
            target.version,
          );
          // Nothing to delete makes no version: roll the number back.
          if (deleted === 0) throw new NothingChanged();
          return { operation: "delete" as const, rowsDeleted: deleted };
        });
        return {
          versionId: result.versionId,
          version: result.version,
          deletedCount: result.work.rowsDeleted,
        };
      },
    );
  } catch (error) {
    if (!(error instanceof NothingChanged)) throw error;
    const dataset = await findDataset(db, refOf(caller, params));
    return { versionId: null, version: dataset.version, deletedCount: 0 };
  }
}
