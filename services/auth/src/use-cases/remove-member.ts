import { type Caller, type OperationInput, operations } from "@svc/contracts";
import { type Database, idempotencyOf, runIdempotent } from "@svc/db";
import type { Kysely, Transaction } from "kysely";
import { assertMayManage } from "../domain/roles";
import { sessionEnded } from "../domain/sessions";
import { listOpenBrowserSessionIdsOfMember } from "../repositories/browser-sessions";
import { deleteMemberRecord, findMember, type MemberRecord } from "../repositories/members";
import { lockOrganization } from "../repositories/organizations";
import type { RevocationEvents } from "./delete-api-key";
import { assertNotLastOwnerMember } from "./last-owner";

export async function removeMember(
  db: Kysely<Database>,
  events: RevocationEvents,
  caller: Caller,
  input: OperationInput<typeof operations.removeMember>,
): Promise<null> {
  const sessions = await runIdempotent(
    db,
    idempotencyOf(caller, operations.removeMember, input),
    async (trx) => {
      await lockOrganization(trx, caller.organizationId);
      const member = await findMember(trx, caller.organizationId, input.params.id);
      assertMayManage(caller.role, member.role, "remove a member");
      return deleteMembership(trx, member, "remove");
    },
    () => [],
  );
  for (const sessionId of sessions) events.credentialRevoked(sessionEnded(sessionId));
  return null;
}

/**
 * Deletes a membership with its sessions and unused codes, in the caller's transaction holding the
 * organisation's lock; answers the sessions that were open, for the gateways to forget once committed
 * (as a revoked key's sessions are forgotten).
 */
export async function deleteMembership(
  trx: Transaction<Database>,
  member: MemberRecord,
  action: "remove" | "leave",
): Promise<string[]> {
  await assertNotLastOwnerMember(trx, member, action);
  const sessions = await listOpenBrowserSessionIdsOfMember(trx, member.id);
  await deleteMemberRecord(trx, member.id);
  return sessions;
}
