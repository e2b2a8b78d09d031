import { type Caller, DomainError, type OperationInput, operations } from "@svc/contracts";
import { type Database, idempotencyOf, runIdempotent } from "@svc/db";
import type { Kysely } from "kysely";
import { sessionEnded } from "../domain/sessions";
import { findOptionalMemberOfUser } from "../repositories/members";
import { lockOrganization } from "../repositories/organizations";
import { callerUserId } from "./caller-user";
import type { RevocationEvents } from "./delete-api-key";
import { deleteMembership } from "./remove-member";

/** A person removes themselves; the last owner stays, so that the organisation keeps one. */
export async function leaveOrganization(
  db: Kysely<Database>,
  events: RevocationEvents,
  caller: Caller,
  input: OperationInput<typeof operations.leaveOrganization>,
): Promise<null> {
  const userId = await callerUserId(db, caller);
  if (userId === undefined) {
    throw new DomainError(
      "forbidden",
      "This key was made by no person, so it has no membership to leave; sign in as yourself, or use a key you made",
    );
  }
  const sessions = await runIdempotent(
    db,
    idempotencyOf(caller, operations.leaveOrganization, input),
    async (trx) => {
      await lockOrganization(trx, caller.organizationId);
      const member = await findOptionalMemberOfUser(trx, caller.organizationId, userId);
      if (!member) {
        throw new DomainError(
          "not_found",
          "You are not a member of this organisation, so there is nothing to leave",
        );
      }
      return deleteMembership(trx, member, "leave");
    },
    () => [],
  );
  for (const sessionId of sessions) events.credentialRevoked(sessionEnded(sessionId));
  return null;
}
