import {
  type ApproveAuthorizationInput,
  DomainError,
  type IssuedAuthorizationCode,
  type Role,
  roleAtLeast,
  roles,
} from "@svc/contracts";
import type { Database } from "@svc/db";
import type { Kysely } from "kysely";
import { addMs, type Clock, newAuthorizationCode, type OAuthLifetimes } from "../domain/oauth";
import { hashToken, isTokenShaped } from "../domain/tokens";
import { findOptionalActiveApiKeyByHash } from "../repositories/api-keys";
import { insertOAuthCode } from "../repositories/oauth-codes";
import { checkAuthorization } from "./check-authorization";

/**
 * The person approved: the API key they pasted says which organisation the grant is for, and caps the
 * role they may give away. Issues a single-use code bound to the client, the redirect URI and the PKCE
 * challenge; only its hash is stored.
 */
export async function approveAuthorization(
  { db, clock, lifetimes }: { db: Kysely<Database>; clock: Clock; lifetimes: OAuthLifetimes },
  input: ApproveAuthorizationInput,
): Promise<IssuedAuthorizationCode> {
  const checked = await checkAuthorization(db, input);
  const key = isTokenShaped(input.apiKey)
    ? await findOptionalActiveApiKeyByHash(db, hashToken(input.apiKey))
    : undefined;
  if (!key) {
    throw new DomainError(
      "unauthenticated",
      "That API key is not valid; it may have been revoked. Paste an API key of the organisation to grant access to",
    );
  }
  assertMayGrant(key.role, input.role);
  const code = newAuthorizationCode();
  const now = clock();
  await insertOAuthCode(db, {
    codeHash: hashToken(code),
    clientId: checked.clientId,
    organizationId: key.organizationId,
    apiKeyId: key.id,
    role: input.role,
    redirectUri: checked.redirectUri,
    codeChallenge: checked.codeChallenge,
    scope: checked.scope ?? null,
    resource: checked.resource ?? null,
    createdAt: now,
    expiresAt: addMs(now, lifetimes.codeMs),
  });
  return {
    redirectUri: checked.redirectUri,
    code,
    ...(checked.state === undefined ? {} : { state: checked.state }),
  };
}

function assertMayGrant(keyRole: Role, role: Role): void {
  if (roleAtLeast(keyRole, role)) return;
  const grantable = roles.filter((candidate) => roleAtLeast(keyRole, candidate));
  throw new DomainError(
    "forbidden",
    `This API key's role (${keyRole}) may not grant the ${role} role; choose ${grantable.join(", ")}`,
    { role, grantable },
  );
}
