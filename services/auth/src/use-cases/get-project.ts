import type { Caller, OperationInput, OperationOutput, operations } from "@svc/contracts";
import type { Database } from "@svc/db";
import type { Kysely } from "kysely";
import { toProject } from "../domain/contract-views";
import { findProject } from "../repositories/projects";

type GetProject = typeof operations.getProject;

export async function getProject(
  db: Kysely<Database>,
  caller: Caller,
  { params }: OperationInput<GetProject>,
): Promise<OperationOutput<GetProject>> {
  return toProject(await findProject(db, caller.organizationId, params.projectSlug));
}
