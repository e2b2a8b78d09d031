import { signInLink, signInLinksMessage } from "../mail/sign-in-mail";
import { listMembershipsOfEmail } from "../repositories/members";
import { issueMemberSignInCode, type PeopleDeps } from "./people";

/**
 * Mails the person with this address one sign-in link for each organisation they belong to, each
 * working once within 15 minutes and only while the address is theirs. An address that is no
 * member's gets nothing. Run off the request's path: its answer must not tell the two apart.
 */
export async function emailSignInLinks(deps: PeopleDeps, email: string): Promise<number> {
  const base = deps.publicUrl?.();
  if (!deps.mailer || base === undefined) return 0;
  const memberships = await listMembershipsOfEmail(deps.db, email);
  if (memberships.length === 0) return 0;
  const now = deps.clock();
  const links = [];
  for (const member of memberships) {
    const code = await issueMemberSignInCode(
      deps.db,
      { memberId: member.id, email },
      now,
      deps.lifetimes.signInCodeMs,
    );
    links.push({ organizationName: member.organizationName, link: signInLink(base, code) });
  }
  await deps.mailer.send(signInLinksMessage(email, links));
  return links.length;
}
