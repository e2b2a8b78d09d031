import { ACCESS_TOKEN_PREFIX, DomainError, type VerifiedCredential } from "@svc/contracts";
import type { Database } from "@svc/db";
import type { Logger } from "@svc/telemetry";
import type { Kysely } from "kysely";
import { type Clock, systemClock } from "../domain/oauth";
import { hashToken, isTokenShaped } from "../domain/tokens";
import { findOptionalActiveApiKeyByHash, updateApiKeyLastUsed } from "../repositories/api-keys";
import { findOptionalActiveAccessToken } from "../repositories/oauth-grants";

/** `last_used_at` is a hint for people pruning keys, not an audit log: once a minute is precise enough. */
const LAST_USED_RESOLUTION_MS = 60_000;

export const invalidCredential = (): DomainError =>
  new DomainError("unauthenticated", "The API key is not valid; it may have been revoked");

/**
 * Who a bearer token is: an API key, or an OAuth access token (its actor is the grant, so that every
 * edit an agent makes is traced to the connection a person approved). Unknown, malformed, expired and
 * revoked tokens look alike to the caller.
 */
export async function verifyCredential(
  deps: { db: Kysely<Database>; logger: Logger; clock?: Clock | undefined },
  token: string,
): Promise<VerifiedCredential> {
  if (!isTokenShaped(token)) throw invalidCredential();
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
  if (!key) throw invalidCredential();
  if (isStale(key.lastUsedAt)) recordUse(deps, key.id);
  return { organizationId: key.organizationId, role: key.role, actor: { kind: "apiKey", id: key.id } };
}

const isStale = (lastUsedAt: Date | null): boolean =>
  lastUsedAt === null || Date.now() - lastUsedAt.getTime() >= LAST_USED_RESOLUTION_MS;

/** Not awaited: the caller's reply must not wait for a bookkeeping write. */
function recordUse(deps: { db: Kysely<Database>; logger: Logger }, keyId: string): void {
  updateApiKeyLastUsed(deps.db, keyId).catch((error: unknown) =>
    deps.logger.warn({ err: error, keyId }, "could not record the use of an API key"),
  );
}
