import type { TokenResponse } from "@svc/contracts";
import type { Database } from "@svc/db";
import type { Kysely } from "kysely";
import {
  ACCESS_TOKEN_TTL_MS,
  addMs,
  newAccessToken,
  newRefreshToken,
  REFRESH_TOKEN_TTL_MS,
} from "../domain/oauth";
import { hashToken } from "../domain/tokens";
import { insertOAuthTokens, type OAuthGrantRecord } from "../repositories/oauth-grants";

/** A fresh access and refresh token under a grant, stored by their hashes; the only copies go to the client. */
export async function issueOAuthTokens(
  db: Kysely<Database>,
  grant: OAuthGrantRecord,
  now: Date,
): Promise<TokenResponse> {
  const accessToken = newAccessToken();
  const refreshToken = newRefreshToken();
  await insertOAuthTokens(db, [
    {
      tokenHash: hashToken(accessToken),
      grantId: grant.id,
      kind: "access",
      createdAt: now,
      expiresAt: addMs(now, ACCESS_TOKEN_TTL_MS),
    },
    {
      tokenHash: hashToken(refreshToken),
      grantId: grant.id,
      kind: "refresh",
      createdAt: now,
      expiresAt: addMs(now, REFRESH_TOKEN_TTL_MS),
    },
  ]);
  return {
    access_token: accessToken,
    token_type: "Bearer",
    expires_in: Math.floor(ACCESS_TOKEN_TTL_MS / 1000),
    refresh_token: refreshToken,
    ...(grant.scope === null ? {} : { scope: grant.scope }),
  };
}
