import { type Caller, type OperationInput, operations } from "@svc/contracts";
import { type Database, findDatasetForUpdate, idempotencyOf, runIdempotent } from "@svc/db";
import type { Kysely } from "kysely";
import { deleteDataset as deleteDatasetRecord } from "../repositories/datasets";
import { refOf } from "./versioning";

export async function deleteDataset(
  db: Kysely<Database>,
  caller: Caller,
  input: OperationInput<typeof operations.deleteDataset>,
): Promise<null> {
  const ref = refOf(caller, input.params);
  return runIdempotent(db, idempotencyOf(caller, operations.deleteDataset, input), async (trx) => {
    const dataset = await findDatasetForUpdate(trx, ref);
    await deleteDatasetRecord(trx, dataset.id);
    return null;
  });
}
