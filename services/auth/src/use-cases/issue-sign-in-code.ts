import type { IssuedSignInCode } from "@svc/contracts";
import { addMs } from "../domain/oauth";
import { newSignInCode } from "../domain/sessions";
import { hashToken } from "../domain/tokens";
import { insertSignInCode } from "../repositories/browser-sessions";
import { findOptionalMemberOfUser } from "../repositories/members";
import type { SessionDeps } from "./create-browser-session";
import { keyOf } from "./create-browser-session";
import { issueMemberSignInCode } from "./people";

/**
 * A single-use code that opens a session for the holder of `apiKey`: the embedded platform prints a
 * link with one at start-up, so that the first visit needs no copying of keys. When a person made the
 * key and is a member, the session is theirs (their name on what they change); otherwise the key's.
 */
export async function issueSignInCode(
  { db, clock, lifetimes }: SessionDeps,
  apiKey: string,
): Promise<IssuedSignInCode> {
  const key = await keyOf(db, apiKey);
  const now = clock();
  const expiresAt = addMs(now, lifetimes.signInCodeMs);
  const member = key.createdBy && (await findOptionalMemberOfUser(db, key.organizationId, key.createdBy.id));
  if (member) {
    const code = await issueMemberSignInCode(db, { memberId: member.id }, now, lifetimes.signInCodeMs);
    return { code, expiresAt: expiresAt.toISOString() };
  }
  const code = newSignInCode();
  await insertSignInCode(db, { codeHash: hashToken(code), apiKeyId: key.id, createdAt: now, expiresAt });
  return { code, expiresAt: expiresAt.toISOString() };
}
