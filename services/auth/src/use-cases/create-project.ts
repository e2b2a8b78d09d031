import {
  type Caller,
  DomainError,
  newId,
  type OperationInput,
  type OperationOutput,
  operations,
  slugify,
} from "@svc/contracts";
import { type Database, idempotencyOf, runIdempotent } from "@svc/db";
import type { Kysely } from "kysely";
import { toProject } from "../domain/contract-views";
import { existsProjectName, insertProjectIfFree, projectNameTaken } from "../repositories/projects";

type CreateProject = typeof operations.createProject;

export async function createProject(
  db: Kysely<Database>,
  caller: Caller,
  input: OperationInput<CreateProject>,
): Promise<OperationOutput<CreateProject>> {
  const { body } = input;
  const slug = slugify(body.name);
  return runIdempotent(db, idempotencyOf(caller, operations.createProject, input), async (trx) => {
    if (await existsProjectName(trx, caller.organizationId, body.name)) throw projectNameTaken(body.name);
    // Millisecond precision, as JavaScript carries it: a list cursor then names a row's position exactly.
    const now = new Date();
    const project = await insertProjectIfFree(trx, {
      id: newId(),
      organizationId: caller.organizationId,
      slug,
      name: body.name,
      createdAt: now,
      updatedAt: now,
    });
    if (project) return toProject(project);
    // Lost a race: the insert waited for the other transaction, so its name is visible now.
    if (await existsProjectName(trx, caller.organizationId, body.name)) throw projectNameTaken(body.name);
    throw new DomainError(
      "conflict",
      `A project with the slug "${slug}" already exists in this organisation; choose another name`,
      { slug },
    );
  });
}
