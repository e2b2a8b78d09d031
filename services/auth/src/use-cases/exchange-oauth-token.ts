import { newId, oauthError, type TokenInput, type TokenRequest, type TokenResponse } from "@svc/contracts";
import type { Database } from "@svc/db";
import type { Kysely } from "kysely";
import { type Clock, grantRevoked, matchResource, type OAuthLifetimes, pkceMatches } from "../domain/oauth";
import { hashToken } from "../domain/tokens";
import {
  findOptionalOAuthCodeForUpdate,
  type OAuthCodeRecord,
  updateOAuthCodeUsed,
} from "../repositories/oauth-codes";
import {
  findOptionalOAuthTokenForUpdate,
  insertOAuthGrant,
  type OAuthGrantRecord,
  updateOAuthGrantRevoked,
  updateOAuthTokenRevoked,
} from "../repositories/oauth-grants";
import type { RevocationEvents } from "./delete-api-key";
import { issueOAuthTokens } from "./issue-oauth-tokens";

export interface TokenDeps {
  db: Kysely<Database>;
  clock: Clock;
  events: RevocationEvents;
  lifetimes: OAuthLifetimes;
}

/** The token endpoint (RFC 6749 §4.1.3 and §6): an authorization code or a refresh token for new tokens. */
export async function exchangeOAuthToken(
  deps: TokenDeps,
  { request: sent, resources }: TokenInput,
): Promise<TokenResponse> {
  if (!sent.client_id) throw oauthError("invalid_request", "client_id is required");
  const resource = sent.resource === undefined ? undefined : matchResource(sent.resource, resources);
  if (sent.resource !== undefined && resource === undefined) {
    throw oauthError("invalid_target", `resource must be one of ${resources.join(", ")}`);
  }
  // From here on the resource is this server's name for it, whatever form the client sent.
  const request: TokenRequest = { ...sent, ...(resource === undefined ? {} : { resource }) };
  switch (request.grant_type) {
    case "authorization_code":
      return exchangeAuthorizationCode(deps, request, sent.client_id);
    case "refresh_token":
      return refreshOAuthToken(deps, request, sent.client_id);
    case undefined:
      throw oauthError("invalid_request", "grant_type is required");
    default:
      throw oauthError("unsupported_grant_type", "grant_type must be authorization_code or refresh_token");
  }
}

type Outcome = { ok: true; tokens: TokenResponse } | { ok: false; error: Error; revokedGrant?: string };

/**
 * Runs in one transaction with the code's row locked, so that of two exchanges of the same code one
 * wins and the other sees it used. A used code is refused and the grant it produced is revoked (RFC 6749
 * §4.1.2): someone else has the code. That revocation must commit, so failures leave the transaction as
 * outcomes rather than exceptions.
 */
async function exchangeAuthorizationCode(
  { db, clock, events, lifetimes }: TokenDeps,
  request: TokenRequest,
  clientId: string,
): Promise<TokenResponse> {
  if (!request.code) throw oauthError("invalid_request", "code is required");
  if (!request.code_verifier) throw oauthError("invalid_request", "code_verifier is required (PKCE)");
  const codeHash = hashToken(request.code);
  const now = clock();
  const outcome = await db.transaction().execute(async (trx): Promise<Outcome> => {
    const code = await findOptionalOAuthCodeForUpdate(trx, codeHash);
    if (!code) return { ok: false, error: invalidCode() };
    if (code.usedAt !== null) {
      const revoked = code.grantId !== null && (await updateOAuthGrantRevoked(trx, code.grantId, now));
      return {
        ok: false,
        error: oauthError(
          "invalid_grant",
          "This authorization code was already used; it is refused, and the tokens issued for it are revoked",
        ),
        ...(revoked && code.grantId !== null ? { revokedGrant: code.grantId } : {}),
      };
    }
    const problem = codeProblem(code, request, clientId, now);
    if (problem) return { ok: false, error: problem };
    const grant: OAuthGrantRecord = {
      id: newId(),
      organizationId: code.organizationId,
      clientId: code.clientId,
      apiKeyId: code.apiKeyId,
      role: code.role,
      scope: code.scope,
      resource: code.resource,
      createdAt: now,
    };
    await insertOAuthGrant(trx, grant);
    await updateOAuthCodeUsed(trx, codeHash, grant.id, now);
    return { ok: true, tokens: await issueOAuthTokens(trx, grant, now, lifetimes) };
  });
  if (outcome.ok) return outcome.tokens;
  if (outcome.revokedGrant) events.credentialRevoked(grantRevoked(outcome.revokedGrant));
  throw outcome.error;
}

/** Why a code that was never used still may not be exchanged: nothing is consumed for these. */
function codeProblem(
  code: OAuthCodeRecord,
  request: TokenRequest,
  clientId: string,
  now: Date,
): Error | undefined {
  if (code.expiresAt.getTime() <= now.getTime()) {
    return oauthError("invalid_grant", "This authorization code has expired; start the authorization again");
  }
  if (code.clientId !== clientId) return invalidCode();
  if (request.redirect_uri !== code.redirectUri) {
    return oauthError("invalid_grant", "redirect_uri does not match the one of the authorization request");
  }
  if (!pkceMatches(request.code_verifier ?? "", code.codeChallenge)) {
    return oauthError("invalid_grant", "code_verifier does not match the code_challenge (PKCE)");
  }
  if (request.resource !== undefined && code.resource !== null && request.resource !== code.resource) {
    return oauthError("invalid_target", "resource differs from the one of the authorization request");
  }
  return undefined;
}

const invalidCode = () => oauthError("invalid_grant", "The authorization code is not valid for this client");

/**
 * Rotation: a refresh token works once and is replaced by a new one. A refresh token presented again
 * after its rotation means two parties hold it, so the whole grant is revoked (OAuth 2.1 §4.3.1).
 */
async function refreshOAuthToken(
  { db, clock, events, lifetimes }: TokenDeps,
  request: TokenRequest,
  clientId: string,
): Promise<TokenResponse> {
  if (!request.refresh_token) throw oauthError("invalid_request", "refresh_token is required");
  const tokenHash = hashToken(request.refresh_token);
  const now = clock();
  const outcome = await db.transaction().execute(async (trx): Promise<Outcome> => {
    const token = await findOptionalOAuthTokenForUpdate(trx, tokenHash);
    if (token?.kind !== "refresh" || token.grant.clientId !== clientId) {
      return { ok: false, error: invalidRefreshToken() };
    }
    if (token.revokedAt !== null) {
      const revoked = await updateOAuthGrantRevoked(trx, token.grant.id, now);
      return {
        ok: false,
        error: oauthError(
          "invalid_grant",
          "This refresh token was already used or revoked; the access it gave is revoked, so authorize again",
        ),
        ...(revoked ? { revokedGrant: token.grant.id } : {}),
      };
    }
    if (token.grantRevoked || token.expiresAt.getTime() <= now.getTime()) {
      return { ok: false, error: invalidRefreshToken() };
    }
    if (request.scope !== undefined && !isWithin(request.scope, token.grant.scope)) {
      return { ok: false, error: oauthError("invalid_scope", "scope may only narrow what was granted") };
    }
    await updateOAuthTokenRevoked(trx, tokenHash, now);
    return { ok: true, tokens: await issueOAuthTokens(trx, token.grant, now, lifetimes) };
  });
  if (outcome.ok) return outcome.tokens;
  if (outcome.revokedGrant) events.credentialRevoked(grantRevoked(outcome.revokedGrant));
  throw outcome.error;
}

const invalidRefreshToken = () =>
  oauthError(
    "invalid_grant",
    "The refresh token is not valid for this client; it may have expired or been revoked, so authorize again",
  );

const scopesOf = (scope: string | null): string[] => (scope ?? "").split(" ").filter(Boolean);
const isWithin = (requested: string, granted: string | null): boolean => {
  const allowed = new Set(scopesOf(granted));
  return scopesOf(requested).every((scope) => allowed.has(scope));
};
