import { type Caller, type OperationInput, operations } from "@svc/contracts";
import { type Database, idempotencyOf, runIdempotent } from "@svc/db";
import type { Kysely } from "kysely";
import { deleteRowsWithTombstones } from "../repositories/rows";
import { NothingChanged, orUnchanged, refOf, writeVersion } from "./versioning";

export async function deleteDatasetRows(
  db: Kysely<Database>,
  caller: Caller,
  input: OperationInput<typeof operations.deleteDatasetRows>,
): Promise<{ versionId: string | null; version: number; deletedCount: number }> {
  const { params, body } = input;
  return orUnchanged(
    db,
    refOf(caller, params),
    () =>
      runIdempotent(db, idempotencyOf(caller, operations.deleteDatasetRows, input), async (trx) => {
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
      }),
    (version) => ({ versionId: null, version, deletedCount: 0 }),
  );
}
