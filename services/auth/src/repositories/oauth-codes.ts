import { type Role, roleSchema } from "@svc/contracts";
import type { Database } from "@svc/db";
import type { Kysely } from "kysely";

export interface OAuthCodeRecord {
  codeHash: string;
  clientId: string;
  organizationId: string;
  apiKeyId: string;
  role: Role;
  redirectUri: string;
  codeChallenge: string;
  scope: string | null;
  resource: string | null;
  createdAt: Date;
  expiresAt: Date;
  usedAt: Date | null;
  grantId: string | null;
}

const columns = [
  "code_hash as codeHash",
  "client_id as clientId",
  "organization_id as organizationId",
  "api_key_id as apiKeyId",
  "role",
  "redirect_uri as redirectUri",
  "code_challenge as codeChallenge",
  "scope",
  "resource",
  "created_at as createdAt",
  "expires_at as expiresAt",
  "used_at as usedAt",
  "grant_id as grantId",
] as const;

export type NewOAuthCode = Omit<OAuthCodeRecord, "usedAt" | "grantId">;

export async function insertOAuthCode(db: Kysely<Database>, code: NewOAuthCode): Promise<void> {
  await db
    .insertInto("oauth_codes")
    .values({
      code_hash: code.codeHash,
      client_id: code.clientId,
      organization_id: code.organizationId,
      api_key_id: code.apiKeyId,
      role: code.role,
      redirect_uri: code.redirectUri,
      code_challenge: code.codeChallenge,
      scope: code.scope,
      resource: code.resource,
      created_at: code.createdAt,
      expires_at: code.expiresAt,
    })
    .execute();
}

/** The code with its row locked until the transaction ends, so that two exchanges of it take turns. */
export async function findOptionalOAuthCodeForUpdate(
  db: Kysely<Database>,
  codeHash: string,
): Promise<OAuthCodeRecord | undefined> {
  const row = await db
    .selectFrom("oauth_codes")
    .select(columns)
    .where("code_hash", "=", codeHash)
    .forUpdate()
    .executeTakeFirst();
  return row && { ...row, role: roleSchema.parse(row.role) };
}

export async function updateOAuthCodeUsed(
  db: Kysely<Database>,
  codeHash: string,
  grantId: string,
  at: Date,
): Promise<void> {
  await db
    .updateTable("oauth_codes")
    .set({ used_at: at, grant_id: grantId })
    .where("code_hash", "=", codeHash)
    .execute();
}
