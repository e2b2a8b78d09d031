import {
  type Caller,
  DomainError,
  newId,
  type OperationInput,
  operations,
  type VersionResult,
} from "@svc/contracts";
import { closeRevisions, type Database, idempotencyOf, runIdempotent } from "@svc/db";
import type { Kysely } from "kysely";
import { listColumns } from "../repositories/columns";
import { insertRows, listExistingRowIds, type NewRowRecord } from "../repositories/rows";
import { assertCellsAccepted, presentBuiltins } from "./column-check";
import { writeVersion } from "./versioning";

export async function insertDatasetRows(
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
      await insertRows(trx, target.datasetId, target.version, records);
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
