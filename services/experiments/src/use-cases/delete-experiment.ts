import type { Caller, OperationInput, operations } from "@svc/contracts";
import type { Database } from "@svc/db";
import type { Kysely } from "kysely";
import { deleteExperiment as deleteExperimentRecord, findExperiment } from "../repositories/experiments";

export async function deleteExperiment(
  db: Kysely<Database>,
  caller: Caller,
  { params }: OperationInput<typeof operations.deleteExperiment>,
): Promise<null> {
  await db.transaction().execute(async (trx) => {
    const experiment = await findExperiment(
      trx,
      { organizationId: caller.organizationId, ...params },
      { lock: "update" },
    );
    await deleteExperimentRecord(trx, experiment.id);
  });
  return null;
}
