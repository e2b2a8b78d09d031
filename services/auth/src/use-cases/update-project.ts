import { type Caller, type OperationInput, type OperationOutput, operations } from "@svc/contracts";
import { type Database, idempotencyOf, runIdempotent } from "@svc/db";
import type { Kysely } from "kysely";
import { toProject } from "../domain/contract-views";
import {
  existsProjectName,
  findProjectForUpdate,
  projectNameTaken,
  updateProjectName,
} from "../repositories/projects";

type UpdateProject = typeof operations.updateProject;

/** Renames a project; its slug stays, so links to it keep working. */
export async function updateProject(
  db: Kysely<Database>,
  caller: Caller,
  input: OperationInput<UpdateProject>,
): Promise<OperationOutput<UpdateProject>> {
  const { params, body } = input;
  return runIdempotent(db, idempotencyOf(caller, operations.updateProject, input), async (trx) => {
    const project = await findProjectForUpdate(trx, caller.organizationId, params.projectSlug);
    if (await existsProjectName(trx, caller.organizationId, body.name, project.id)) {
      throw projectNameTaken(body.name);
    }
    return toProject(await updateProjectName(trx, project.id, body.name, new Date()));
  });
}
