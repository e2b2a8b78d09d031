import {
  ACCESS_TOKEN_PREFIX,
  DomainError,
  SESSION_TOKEN_PREFIX,
  type VerifiedCredential,
} from "@svc/contracts";
import type { Database } from "@svc/db";
import type { Logger } from "@svc/telemetry";
import type { Kysely } from "kysely";
import { addMs, type Clock, systemClock } from "../domain/oauth";
import { defaultSessionLifetimes, type SessionLifetimes } from "../domain/sessions";
import { hashToken, isTokenShaped } from "../domain/tokens";
import { findOptionalActiveApiKeyByHash, updateApiKeyLastUsed } from "../repositories/api-keys";
import {
  findOptionalActiveBrowserSession,
  updateBrowserSessionLastSeen,
} from "../repositories/browser-sessions";
import { findOptionalActiveAccessToken } from "../repositories/oauth-grants";

/** `last_used_at` is a hint for people pruning keys, not an audit log: once a minute is precise enough. */
const LAST_USED_RESOLUTION_MS = 60_000;

export const invalidCredential = (): DomainError =>
  new DomainError("unauthenticated", "The API key is not valid; it may have been revoked");

export interface VerifyDeps {
  db: Kysely<Database>;
  logger: Logger;
  clock?: Clock | undefined;
  sessionLifetimes?: SessionLifetimes | undefined;
}

/**
 * Who a credential is: an API key, an OAuth access token (its actor is the grant, so that every edit
 * an agent makes is traced to the connection a person approved), or a browser session: a member's own
 * (its actor is the user, with the member's organisation and role) or one opened with a key (its
 * actor is the session, with the key's organisation and role). Unknown, malformed, expired and
 * revoked tokens look alike to the caller.
 */
export async function verifyCredential(deps: VerifyDeps, token: string): Promise<VerifiedCredential> {
  if (!isTokenShaped(token)) throw invalidCredential();
  if (token.startsWith(SESSION_TOKEN_PREFIX)) return verifySession(deps, token);
  if (token.startsWith(ACCESS_TOKEN_PREFIX)) {
    const access = await findOptionalActiveAccessToken(
      deps.db,
      hashToken(token),
      (deps.clock ?? systemClock)(),
    );
    if (access) {
      return {
        organizationId: access.grant.organizationId,
        role: access.grant.role,
        actor: { kind: "oauth", id: access.grant.id },
        expiresAt: access.expiresAt.toISOString(),
      };
    }
  }
  const key = await findOptionalActiveApiKeyByHash(deps.db, hashToken(token));
  if (!key) throw token.startsWith(ACCESS_TOKEN_PREFIX) ? invalidAccessToken() : invalidCredential();
  if (isStale(key.lastUsedAt)) recordUse(deps, key.id);
  return { organizationId: key.organizationId, role: key.role, actor: { kind: "apiKey", id: key.id } };
}

async function verifySession(deps: VerifyDeps, token: string): Promise<VerifiedCredential> {
  const now = (deps.clock ?? systemClock)();
  const lifetimes = deps.sessionLifetimes ?? defaultSessionLifetimes;
  const session = await findOptionalActiveBrowserSession(
    deps.db,
    hashToken(token),
    now,
    addMs(now, -lifetimes.idleMs),
  );
  if (!session) throw sessionEnded();
  if (isStale(session.lastSeenAt, now)) {
    updateBrowserSessionLastSeen(deps.db, session.id, now).catch((error: unknown) =>
      deps.logger.warn({ err: error, sessionId: session.id }, "could not record the use of a session"),
    );
  }
  return {
    organizationId: session.organizationId,
    role: session.role,
    actor:
      session.userId === undefined
        ? { kind: "session", id: session.id }
        : { kind: "user", id: session.userId },
    sessionId: session.id,
    expiresAt: session.expiresAt.toISOString(),
  };
}

const invalidAccessToken = (): DomainError =>
  new DomainError(
    "unauthenticated",
    "The access token is not valid; it may have expired or been revoked. Refresh it, or authorize again",
  );

const sessionEnded = (): DomainError =>
  new DomainError(
    "unauthenticated",
    "Your session has ended (signed out, idle too long, its key revoked, or your membership removed); sign in again",
  );

const isStale = (lastUsedAt: Date | null, now = new Date()): boolean =>
  lastUsedAt === null || now.getTime() - lastUsedAt.getTime() >= LAST_USED_RESOLUTION_MS;

/** Not awaited: the caller's reply must not wait for a bookkeeping write. */
function recordUse(deps: { db: Kysely<Database>; logger: Logger }, keyId: string): void {
  updateApiKeyLastUsed(deps.db, keyId).catch((error: unknown) =>
    deps.logger.warn({ err: error, keyId }, "could not record the use of an API key"),
  );
}
