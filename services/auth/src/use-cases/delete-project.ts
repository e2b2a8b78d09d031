import { type Caller, type OperationInput, operations } from "@svc/contracts";
import { type Database, idempotencyOf, runIdempotent } from "@svc/db";
import type { Kysely } from "kysely";
import { deleteProjectRecord, findProjectForUpdate } from "../repositories/projects";

/** Deletes a project and every dataset in it. */
export async function deleteProject(
  db: Kysely<Database>,
  caller: Caller,
  input: OperationInput<typeof operations.deleteProject>,
): Promise<null> {
  return runIdempotent(db, idempotencyOf(caller, operations.deleteProject, input), async (trx) => {
    const project = await findProjectForUpdate(trx, caller.organizationId, input.params.projectSlug);
    await deleteProjectRecord(trx, project.id);
    return null;
  });
}
