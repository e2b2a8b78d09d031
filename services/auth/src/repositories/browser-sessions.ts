import { type Role, roleSchema } from "@svc/contracts";
import type { Database } from "@svc/db";
import type { Kysely } from "kysely";

export interface NewBrowserSession {
  id: string;
  tokenHash: string;
  organizationId: string;
  apiKeyId: string;
  createdAt: Date;
  expiresAt: Date;
}

/** A session that still works, with the role of the key it acts for. */
export interface ActiveBrowserSession {
  id: string;
  organizationId: string;
  apiKeyId: string;
  role: Role;
  lastSeenAt: Date;
  expiresAt: Date;
}

export async function insertBrowserSession(db: Kysely<Database>, session: NewBrowserSession): Promise<void> {
  await db
    .insertInto("browser_sessions")
    .values({
      id: session.id,
      token_hash: session.tokenHash,
      organization_id: session.organizationId,
      api_key_id: session.apiKeyId,
      created_at: session.createdAt,
      last_seen_at: session.createdAt,
      expires_at: session.expiresAt,
    })
    .execute();
}

/**
 * The session whose token hashes to `tokenHash`, when it has not ended, has not reached its absolute
 * expiry, has been seen since `idleSince`, and its API key is not revoked. One indexed lookup, as
 * every request of the web application pays for it.
 */
export async function findOptionalActiveBrowserSession(
  db: Kysely<Database>,
  tokenHash: string,
  now: Date,
  idleSince: Date,
): Promise<ActiveBrowserSession | undefined> {
  const row = await db
    .selectFrom("browser_sessions as s")
    .innerJoin("api_keys as k", "k.id", "s.api_key_id")
    .select([
      "s.id",
      "s.organization_id as organizationId",
      "s.api_key_id as apiKeyId",
      "k.role",
      "s.last_seen_at as lastSeenAt",
      "s.expires_at as expiresAt",
    ])
    .where("s.token_hash", "=", tokenHash)
    .where("s.ended_at", "is", null)
    .where("s.expires_at", ">", now)
    .where("s.last_seen_at", ">", idleSince)
    .where("k.revoked_at", "is", null)
    .executeTakeFirst();
  return row && { ...row, role: roleSchema.parse(row.role) };
}

export async function updateBrowserSessionLastSeen(
  db: Kysely<Database>,
  id: string,
  at: Date,
): Promise<void> {
  await db.updateTable("browser_sessions").set({ last_seen_at: at }).where("id", "=", id).execute();
}

/** Ends the session with this token; its id when this call ended it, undefined when none was open. */
export async function updateBrowserSessionEnded(
  db: Kysely<Database>,
  tokenHash: string,
  at: Date,
): Promise<string | undefined> {
  const row = await db
    .updateTable("browser_sessions")
    .set({ ended_at: at })
    .where("token_hash", "=", tokenHash)
    .where("ended_at", "is", null)
    .returning("id")
    .executeTakeFirst();
  return row?.id;
}

/** The sessions opened with an API key that have not ended (its revocation ends them all). */
export async function listOpenBrowserSessionIdsOfApiKey(
  db: Kysely<Database>,
  apiKeyId: string,
): Promise<string[]> {
  const rows = await db
    .selectFrom("browser_sessions")
    .select("id")
    .where("api_key_id", "=", apiKeyId)
    .where("ended_at", "is", null)
    .execute();
  return rows.map((row) => row.id);
}

export async function insertSignInCode(
  db: Kysely<Database>,
  code: { codeHash: string; apiKeyId: string; createdAt: Date; expiresAt: Date },
): Promise<void> {
  await db
    .insertInto("sign_in_codes")
    .values({
      code_hash: code.codeHash,
      api_key_id: code.apiKeyId,
      created_at: code.createdAt,
      expires_at: code.expiresAt,
    })
    .execute();
}

/**
 * Marks the code used and answers the API key it was issued for, when the code exists, is unused and
 * unexpired. One statement: two sign-ins with the same code cannot both succeed.
 */
export async function updateSignInCodeUsed(
  db: Kysely<Database>,
  codeHash: string,
  now: Date,
): Promise<string | undefined> {
  const row = await db
    .updateTable("sign_in_codes")
    .set({ used_at: now })
    .where("code_hash", "=", codeHash)
    .where("used_at", "is", null)
    .where("expires_at", ">", now)
    .returning("api_key_id as apiKeyId")
    .executeTakeFirst();
  return row?.apiKeyId;
}

/** Sign-in codes are single-use and short-lived: once expired they are of no use to anyone. */
export async function deleteExpiredSignInCodes(db: Kysely<Database>, now: Date): Promise<number> {
  const result = await db.deleteFrom("sign_in_codes").where("expires_at", "<", now).executeTakeFirst();
  return Number(result.numDeletedRows);
}
