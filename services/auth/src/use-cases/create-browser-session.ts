import { type CreatedSession, type CreateSessionInput, DomainError, newId } from "@svc/contracts";
import type { Database } from "@svc/db";
import type { Kysely } from "kysely";
import type { Clock } from "../domain/oauth";
import { addMs } from "../domain/oauth";
import { newSessionToken, type SessionLifetimes } from "../domain/sessions";
import { hashToken, isTokenShaped } from "../domain/tokens";
import {
  type ApiKeyRecord,
  findOptionalActiveApiKeyByHash,
  findOptionalActiveApiKeyById,
} from "../repositories/api-keys";
import {
  findOptionalSignInCodeState,
  insertBrowserSession,
  type SessionHolder,
  updateSignInCodeUsed,
} from "../repositories/browser-sessions";
import {
  findOptionalMemberById,
  findOptionalMemberOfUser,
  type MemberRecord,
  updateMemberActive,
} from "../repositories/members";
import { findOptionalUserByEmail } from "../repositories/users";
import { invalidCredential } from "./verify-credential";

export interface SessionDeps {
  db: Kysely<Database>;
  clock: Clock;
  lifetimes: SessionLifetimes;
}

/**
 * Opens a browser session for the person holding an API key (it acts with the key's organisation
 * and role), or for the person a one-time sign-in code was issued to: the key's holder, or a member
 * (it acts as that user, with the member's role). Only the hash of its token is kept.
 */
export async function createBrowserSession(
  deps: SessionDeps,
  input: CreateSessionInput,
): Promise<CreatedSession> {
  if ("apiKey" in input) {
    const key = await keyOf(deps.db, input.apiKey);
    return openSession(deps, key.organizationId, { apiKeyId: key.id });
  }
  const now = deps.clock();
  const codeHash = hashToken(input.signInCode);
  const redeemed = await updateSignInCodeUsed(deps.db, codeHash, now);
  if (redeemed === undefined) throw await signInCodeRefused(deps.db, codeHash);
  if ("apiKeyId" in redeemed) {
    const key = await findOptionalActiveApiKeyById(deps.db, redeemed.apiKeyId);
    if (!key) throw revokedSinceIssued();
    return openSession(deps, key.organizationId, { apiKeyId: key.id });
  }
  const member = await findOptionalMemberById(deps.db, redeemed.memberId);
  // A mailed link is for the address it went to: once the person's address changed, it is void.
  if (!member || (redeemed.email !== null && member.email !== redeemed.email)) throw revokedSinceIssued();
  return openMemberSession(deps, member);
}

/**
 * Opens a session of a member signed in as themselves, and makes an invited member active: what every
 * way of proving who a person is (a sign-in link, single sign-on) ends with.
 */
export async function openMemberSession(deps: SessionDeps, member: MemberRecord): Promise<CreatedSession> {
  await updateMemberActive(deps.db, member.id, deps.clock());
  return openSession(deps, member.organizationId, { memberId: member.id });
}

/**
 * For a sign-in method that has verified the person's address itself (single sign-on): a session as
 * the member with that address in that organisation. Unknown addresses and non-members are refused
 * alike.
 */
export async function openSessionForVerifiedEmail(
  deps: SessionDeps,
  verified: { email: string; organizationId: string },
): Promise<CreatedSession> {
  const user = await findOptionalUserByEmail(deps.db, verified.email.trim().toLowerCase());
  const member = user && (await findOptionalMemberOfUser(deps.db, verified.organizationId, user.id));
  if (!member) {
    throw new DomainError(
      "unauthenticated",
      "This address is not a member of the organisation; ask one of its owners or admins for an invitation",
    );
  }
  return openMemberSession(deps, member);
}

async function openSession(
  { db, clock, lifetimes }: SessionDeps,
  organizationId: string,
  holder: SessionHolder,
): Promise<CreatedSession> {
  const now = clock();
  const token = newSessionToken();
  const session = {
    id: newId(),
    tokenHash: hashToken(token),
    organizationId,
    ...holder,
    createdAt: now,
    expiresAt: addMs(now, lifetimes.absoluteMs),
  };
  await insertBrowserSession(db, session);
  return { token, sessionId: session.id, expiresAt: session.expiresAt.toISOString() };
}

export async function keyOf(db: Kysely<Database>, token: string): Promise<ApiKeyRecord> {
  const key = isTokenShaped(token) ? await findOptionalActiveApiKeyByHash(db, hashToken(token)) : undefined;
  if (!key) throw invalidCredential();
  return key;
}

/** Says why a code does not work, so that the person knows what to do; a forged one was never issued. */
async function signInCodeRefused(db: Kysely<Database>, codeHash: string): Promise<DomainError> {
  const state = await findOptionalSignInCodeState(db, codeHash);
  const reason =
    state === undefined
      ? "it was never issued, or has expired"
      : state.used
        ? "it has been used already: each link works once"
        : "it has expired";
  return new DomainError(
    "unauthenticated",
    `This sign-in link does not work: ${reason}. Ask for a new one (e-mail yourself a link, ask for a new invitation, or restart the platform), or sign in with an API key`,
    { reason: state === undefined ? "unknown" : state.used ? "used" : "expired" },
  );
}

const revokedSinceIssued = () =>
  new DomainError(
    "unauthenticated",
    "This sign-in link no longer works: the key or membership it was for was revoked, or the address it was sent to changed. Ask for a new one, or sign in with an API key",
    { reason: "revoked" },
  );
