import { DomainError, type VerifiedEmailSignIn } from "@svc/contracts";
import { listMembershipsOfEmail } from "../repositories/members";
import { openSessionForVerifiedEmail, type SessionDeps } from "./create-browser-session";
import { issueMemberSignInCode } from "./people";

/**
 * Signs in a person whose address a sign-in method has verified itself (single sign-on). A member of
 * one organisation gets a session there; a member of several gets one sign-in code per organisation,
 * each working once within 15 minutes while the address is theirs, as a mailed sign-in link gives one
 * link per organisation: the person chooses. An address that is no member's, invited or active, is
 * refused.
 */
export async function signInVerifiedEmail(deps: SessionDeps, email: string): Promise<VerifiedEmailSignIn> {
  const memberships = await listMembershipsOfEmail(deps.db, email);
  const [only] = memberships;
  if (only === undefined) throw notAMember();
  if (memberships.length === 1) {
    return {
      session: await openSessionForVerifiedEmail(deps, { email, organizationId: only.organizationId }),
    };
  }
  const now = deps.clock();
  const choices = [];
  for (const member of memberships) {
    const signInCode = await issueMemberSignInCode(
      deps.db,
      { memberId: member.id, email },
      now,
      deps.lifetimes.signInCodeMs,
    );
    choices.push({ organizationName: member.organizationName, signInCode });
  }
  return { choices };
}

const notAMember = () =>
  new DomainError(
    "unauthenticated",
    "This address is not a member of any organisation here; ask an owner or admin for an invitation",
    { reason: "not_a_member" },
  );
