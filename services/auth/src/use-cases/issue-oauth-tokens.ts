import type { TokenResponse } from "@svc/contracts";
import type { Database } from "@svc/db";
import type { Kysely } from "kysely";
import { addMs, newAccessToken, newRefreshToken, type OAuthLifetimes } from "../domain/oauth";
import { hashToken } from "../domain/tokens";
import { insertOAuthTokens, type OAuthGrantRecord } from "../repositories/oauth-grants";

/** A fresh access and refresh token under a grant, stored by their hashes; the only copies go to the client. */
export async function issueOAuthTokens(
  db: Kysely<Database>,
  grant: OAuthGrantRecord,
  now: Date,
  lifetimes: OAuthLifetimes,
): Promise<TokenResponse> {
  const accessToken = newAccessToken();
  const refreshToken = newRefreshToken();
  await insertOAuthTokens(db, [
    {
      tokenHash: hashToken(accessToken),
      grantId: grant.id,
      kind: "access",
      createdAt: now,
      expiresAt: addMs(now, lifetimes.accessTokenMs),
    },
    {
      tokenHash: hashToken(refreshToken),
      grantId: grant.id,
      kind: "refresh",
      createdAt: now,
      expiresAt: addMs(now, lifetimes.refreshTokenMs),
    },
  ]);
  return {
    access_token: accessToken,
    token_type: "Bearer",
    expires_in: Math.floor(lifetimes.accessTokenMs / 1000),
    refresh_token: refreshToken,
    ...(grant.scope === null ? {} : { scope: grant.scope }),
  };
}
