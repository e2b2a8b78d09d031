import {
  type Caller,
  DomainError,
  newId,
  type OperationInput,
  type OperationOutput,
  operations,
} from "@svc/contracts";
import { type Database, idempotencyOf, runIdempotent } from "@svc/db";
import type { Kysely } from "kysely";
import { toMember } from "../domain/contract-views";
import { assertMayGrant } from "../domain/roles";
import { insertMemberIfEmailFree } from "../repositories/members";

type AddMember = typeof operations.addMember;

export async function addMember(
  db: Kysely<Database>,
  caller: Caller,
  input: OperationInput<AddMember>,
): Promise<OperationOutput<AddMember>> {
  const { body } = input;
  assertMayGrant(caller.role, body.role, "member");
  return runIdempotent(db, idempotencyOf(caller, operations.addMember, input), async (trx) => {
    const now = new Date();
    const member = await insertMemberIfEmailFree(trx, {
      id: newId(),
      organizationId: caller.organizationId,
      email: body.email,
      role: body.role,
      createdAt: now,
      updatedAt: now,
    });
    if (!member) {
      throw new DomainError(
        "conflict",
        `"${body.email}" is already a member of this organisation; change their role instead of adding them again`,
        { email: body.email },
      );
    }
    return toMember(member);
  });
}
