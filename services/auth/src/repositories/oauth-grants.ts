import { type Role, roleSchema } from "@svc/contracts";
import type { Database } from "@svc/db";
import type { Kysely } from "kysely";

export interface OAuthGrantRecord {
  id: string;
  organizationId: string;
  clientId: string;
  apiKeyId: string;
  role: Role;
  scope: string | null;
  resource: string | null;
  createdAt: Date;
}

export type OAuthTokenKind = "access" | "refresh";

export interface NewOAuthToken {
  tokenHash: string;
  grantId: string;
  kind: OAuthTokenKind;
  createdAt: Date;
  expiresAt: Date;
}

/** A token with what its grant allows, and whether the grant is still alive. */
export interface OAuthTokenRecord {
  tokenHash: string;
  kind: OAuthTokenKind;
  expiresAt: Date;
  revokedAt: Date | null;
  grant: OAuthGrantRecord;
  /** The grant is revoked, or the API key that approved it is. */
  grantRevoked: boolean;
}

export async function insertOAuthGrant(db: Kysely<Database>, grant: OAuthGrantRecord): Promise<void> {
  await db
    .insertInto("oauth_grants")
    .values({
      id: grant.id,
      organization_id: grant.organizationId,
      client_id: grant.clientId,
      api_key_id: grant.apiKeyId,
      role: grant.role,
      scope: grant.scope,
      resource: grant.resource,
      created_at: grant.createdAt,
    })
    .execute();
}

export async function insertOAuthTokens(
  db: Kysely<Database>,
  tokens: readonly NewOAuthToken[],
): Promise<void> {
  await db
    .insertInto("oauth_tokens")
    .values(
      tokens.map((token) => ({
        token_hash: token.tokenHash,
        grant_id: token.grantId,
        kind: token.kind,
        created_at: token.createdAt,
        expires_at: token.expiresAt,
      })),
    )
    .execute();
}

function tokensWithGrants(db: Kysely<Database>) {
  return db
    .selectFrom("oauth_tokens as t")
    .innerJoin("oauth_grants as g", "g.id", "t.grant_id")
    .innerJoin("api_keys as k", "k.id", "g.api_key_id")
    .select([
      "t.token_hash as tokenHash",
      "t.kind",
      "t.expires_at as expiresAt",
      "t.revoked_at as revokedAt",
      "g.id as grantId",
      "g.organization_id as organizationId",
      "g.client_id as clientId",
      "g.api_key_id as apiKeyId",
      "g.role",
      "g.scope",
      "g.resource",
      "g.created_at as grantCreatedAt",
      "g.revoked_at as grantRevokedAt",
      "k.revoked_at as keyRevokedAt",
    ]);
}

type TokenRow = Awaited<ReturnType<ReturnType<typeof tokensWithGrants>["executeTakeFirstOrThrow"]>>;

const toTokenRecord = (row: TokenRow): OAuthTokenRecord => ({
  tokenHash: row.tokenHash,
  kind: row.kind,
  expiresAt: row.expiresAt,
  revokedAt: row.revokedAt,
  grant: {
    id: row.grantId,
    organizationId: row.organizationId,
    clientId: row.clientId,
    apiKeyId: row.apiKeyId,
    role: roleSchema.parse(row.role),
    scope: row.scope,
    resource: row.resource,
    createdAt: row.grantCreatedAt,
  },
  grantRevoked: row.grantRevokedAt !== null || row.keyRevokedAt !== null,
});

/**
 * An access token that works at `now`: not expired, not revoked, its grant not revoked and the API key
 * that approved the grant not revoked either. One indexed lookup, as every API call pays for it.
 */
export async function findOptionalActiveAccessToken(
  db: Kysely<Database>,
  tokenHash: string,
  now: Date,
): Promise<{ grant: OAuthGrantRecord; expiresAt: Date } | undefined> {
  const row = await tokensWithGrants(db)
    .where("t.token_hash", "=", tokenHash)
    .where("t.kind", "=", "access")
    .where("t.revoked_at", "is", null)
    .where("t.expires_at", ">", now)
    .where("g.revoked_at", "is", null)
    .where("k.revoked_at", "is", null)
    .executeTakeFirst();
  if (!row) return undefined;
  const token = toTokenRecord(row);
  return { grant: token.grant, expiresAt: token.expiresAt };
}

/** The grants an API key approved that are not revoked on their own (the key's revocation ends them too). */
export async function findUnrevokedOAuthGrantIdsOfApiKey(
  db: Kysely<Database>,
  organizationId: string,
  apiKeyId: string,
): Promise<string[]> {
  const rows = await db
    .selectFrom("oauth_grants")
    .select("id")
    // The organisation first: its index narrows the search (there is none on api_key_id).
    .where("organization_id", "=", organizationId)
    .where("api_key_id", "=", apiKeyId)
    .where("revoked_at", "is", null)
    .execute();
  return rows.map((row) => row.id);
}

export async function findOptionalOAuthToken(
  db: Kysely<Database>,
  tokenHash: string,
): Promise<OAuthTokenRecord | undefined> {
  const row = await tokensWithGrants(db).where("t.token_hash", "=", tokenHash).executeTakeFirst();
  return row && toTokenRecord(row);
}

/** The token with its row locked until the transaction ends, so that two refreshes with it take turns. */
export async function findOptionalOAuthTokenForUpdate(
  db: Kysely<Database>,
  tokenHash: string,
): Promise<OAuthTokenRecord | undefined> {
  const row = await tokensWithGrants(db)
    .where("t.token_hash", "=", tokenHash)
    .forUpdate("t")
    .executeTakeFirst();
  return row && toTokenRecord(row);
}

export async function updateOAuthTokenRevoked(
  db: Kysely<Database>,
  tokenHash: string,
  at: Date,
): Promise<void> {
  await db.updateTable("oauth_tokens").set({ revoked_at: at }).where("token_hash", "=", tokenHash).execute();
}

/** Revokes the grant and every token issued under it. True when this call did it. */
export async function updateOAuthGrantRevoked(
  db: Kysely<Database>,
  grantId: string,
  at: Date,
): Promise<boolean> {
  const revoked = await db
    .updateTable("oauth_grants")
    .set({ revoked_at: at })
    .where("id", "=", grantId)
    .where("revoked_at", "is", null)
    .executeTakeFirst();
  await db
    .updateTable("oauth_tokens")
    .set({ revoked_at: at })
    .where("grant_id", "=", grantId)
    .where("revoked_at", "is", null)
    .execute();
  return revoked.numUpdatedRows > 0n;
}
