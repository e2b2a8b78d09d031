import type { Caller, Experiment, OperationInput, operations } from "@svc/contracts";
import type { Database } from "@svc/db";
import type { Kysely } from "kysely";
import { findExperiment, updateExperiment as updateExperimentRecord } from "../repositories/experiments";
import { withTotals } from "./experiment-view";

/** Renames, re-describes or finishes an experiment; finishing waits for batches being recorded. */
export async function updateExperiment(
  db: Kysely<Database>,
  caller: Caller,
  { params, body }: OperationInput<typeof operations.updateExperiment>,
): Promise<Experiment> {
  const record = await db.transaction().execute(async (trx) => {
    const experiment = await findExperiment(
      trx,
      { organizationId: caller.organizationId, ...params },
      { lock: "update" },
    );
    return updateExperimentRecord(trx, experiment.id, {
      ...(body.name !== undefined ? { name: body.name } : {}),
      ...(body.metadata !== undefined ? { metadata: body.metadata } : {}),
      finish: body.status === "finished",
    });
  });
  const [experiment] = await withTotals(db, [record]);
  return experiment as Experiment;
}
