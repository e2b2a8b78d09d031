import { type Caller, type OperationInput, type OperationOutput, operations } from "@svc/contracts";
import { idempotencyOf, runIdempotent } from "@svc/db";
import { assertMayGrant } from "../domain/roles";
import { findOptionalUser } from "../repositories/users";
import { deliverInvitation, inviteInTransaction, type PeopleDeps } from "./people";

type AddMember = typeof operations.addMember;

/**
 * Invites a person: an invited member with a one-time sign-in link, mailed or answered once. A
 * replay of the request answers the member without the link and mails nothing again.
 */
export async function addMember(
  deps: PeopleDeps,
  caller: Caller,
  input: OperationInput<AddMember>,
): Promise<OperationOutput<AddMember>> {
  const { body } = input;
  assertMayGrant(caller.role, body.role, "member");
  let invited: Awaited<ReturnType<typeof inviteInTransaction>> | undefined;
  const member = await runIdempotent(
    deps.db,
    idempotencyOf(caller, operations.addMember, input),
    async (trx) => {
      invited = await inviteInTransaction(trx, {
        organizationId: caller.organizationId,
        email: body.email,
        role: body.role,
        now: deps.clock(),
        lifetimeMs: deps.lifetimes.invitationMs,
      });
      return invited.member;
    },
  );
  if (invited === undefined) return member;
  const inviter = caller.actor.kind === "user" ? await findOptionalUser(deps.db, caller.actor.id) : undefined;
  return deliverInvitation(deps, invited, { origin: caller.origin, inviterName: inviter?.name });
}
