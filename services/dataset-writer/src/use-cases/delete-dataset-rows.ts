import { type Caller, type OperationInput, operations } from "@svc/contracts";
import { type Database, idempotencyOf } from "@svc/db";
import type { Kysely } from "kysely";
import { deleteRowsWithTombstones } from "../repositories/rows";
import { versionTransaction, writeVersion } from "./versioning";

export async function deleteDatasetRows(
  db: Kysely<Database>,
  caller: Caller,
  input: OperationInput<typeof operations.deleteDatasetRows>,
): Promise<{ versionId: string | null; version: number; deletedCount: number }> {
  const { params, body } = input;
  return versionTransaction(db, idempotencyOf(caller, operations.deleteDatasetRows, input), (trx) =>
    writeVersion(
      trx,
      caller,
      params,
      async (target) => ({
        operation: "delete" as const,
        rowsDeleted: await deleteRowsWithTombstones(trx, target.datasetId, body.selection, target.version),
      }),
      ({ versionId, version, work }) => ({ versionId, version, deletedCount: work.rowsDeleted }),
    ),
  );
}
