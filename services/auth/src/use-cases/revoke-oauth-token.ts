import { oauthError, type RevokeTokenInput } from "@svc/contracts";
import type { Database } from "@svc/db";
import type { Kysely } from "kysely";
import { type Clock, grantRevoked } from "../domain/oauth";
import { hashToken } from "../domain/tokens";
import { findOptionalOAuthToken, updateOAuthGrantRevoked } from "../repositories/oauth-grants";
import type { RevocationEvents } from "./delete-api-key";

/**
 * RFC 7009. Revoking either token of a grant revokes the grant and all its tokens: an agent that is
 * disconnected should be disconnected entirely. An unknown token is not an error (§2.2), so that the
 * answer says nothing about which tokens exist.
 */
export async function revokeOAuthToken(
  deps: { db: Kysely<Database>; clock: Clock; events: RevocationEvents },
  input: RevokeTokenInput,
): Promise<null> {
  if (!input.token) throw oauthError("invalid_request", "token is required");
  const token = await findOptionalOAuthToken(deps.db, hashToken(input.token));
  if (!token) return null;
  if (input.client_id !== undefined && input.client_id !== token.grant.clientId) {
    throw oauthError("unauthorized_client", "This token was not issued to this client");
  }
  const now = deps.clock();
  const revoked = await deps.db
    .transaction()
    .execute((trx) => updateOAuthGrantRevoked(trx, token.grant.id, now));
  if (revoked) deps.events.credentialRevoked(grantRevoked(token.grant.id));
  return null;
}
