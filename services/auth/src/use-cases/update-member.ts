import { type Caller, type OperationInput, type OperationOutput, operations } from "@svc/contracts";
import { type Database, idempotencyOf, runIdempotent } from "@svc/db";
import type { Kysely } from "kysely";
import { toMember } from "../domain/contract-views";
import { assertMayGrant, assertMayManage } from "../domain/roles";
import { findMember, updateMemberRole } from "../repositories/members";
import { lockOrganization } from "../repositories/organizations";
import { assertNotLastOwnerMember } from "./last-owner";

type UpdateMember = typeof operations.updateMember;

/** The member's sessions read their role at each verification, so the new one holds within a second. */
export async function updateMember(
  db: Kysely<Database>,
  caller: Caller,
  input: OperationInput<UpdateMember>,
): Promise<OperationOutput<UpdateMember>> {
  const { params, body } = input;
  return runIdempotent(db, idempotencyOf(caller, operations.updateMember, input), async (trx) => {
    await lockOrganization(trx, caller.organizationId);
    const member = await findMember(trx, caller.organizationId, params.id);
    assertMayManage(caller.role, member.role, "change a member");
    assertMayGrant(caller.role, body.role, "member");
    if (body.role !== "owner") await assertNotLastOwnerMember(trx, member, "demote");
    await updateMemberRole(trx, member.id, body.role, new Date());
    return toMember(await findMember(trx, caller.organizationId, member.id));
  });
}
