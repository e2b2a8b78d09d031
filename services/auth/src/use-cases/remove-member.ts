import { type Caller, type OperationInput, operations } from "@svc/contracts";
import { type Database, idempotencyOf, runIdempotent } from "@svc/db";
import type { Kysely } from "kysely";
import { assertMayManage } from "../domain/roles";
import { deleteMemberRecord, findMember } from "../repositories/members";
import { lockOrganization } from "../repositories/organizations";
import { assertNotLastOwnerMember } from "./last-owner";

export async function removeMember(
  db: Kysely<Database>,
  caller: Caller,
  input: OperationInput<typeof operations.removeMember>,
): Promise<null> {
  return runIdempotent(db, idempotencyOf(caller, operations.removeMember, input), async (trx) => {
    await lockOrganization(trx, caller.organizationId);
    const member = await findMember(trx, caller.organizationId, input.params.id);
    assertMayManage(caller.role, member.role, "remove a member");
    await assertNotLastOwnerMember(trx, member, "remove");
    await deleteMemberRecord(trx, member.id);
    return null;
  });
}
