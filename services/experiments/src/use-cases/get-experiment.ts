import type { Caller, Experiment, OperationInput, operations } from "@svc/contracts";
import type { Database } from "@svc/db";
import type { Kysely } from "kysely";
import { findExperiment } from "../repositories/experiments";
import { withTotals } from "./experiment-view";

export async function getExperiment(
  db: Kysely<Database>,
  caller: Caller,
  { params }: OperationInput<typeof operations.getExperiment>,
): Promise<Experiment> {
  const record = await findExperiment(db, { organizationId: caller.organizationId, ...params });
  const [experiment] = await withTotals(db, [record]);
  return experiment as Experiment;
}
