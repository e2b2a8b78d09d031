import { type Role, roleSchema } from "@svc/contracts";
import type { Database } from "@svc/db";
import type { Kysely } from "kysely";

/** Who a session acts for: the key it was opened with, or a member signed in as themselves. */
export type SessionHolder = { apiKeyId: string } | { memberId: string };

export type NewBrowserSession = {
  id: string;
  tokenHash: string;
  organizationId: string;
  createdAt: Date;
  expiresAt: Date;
} & SessionHolder;

/** A session that still works, with the role of the key or member it acts for. */
export interface ActiveBrowserSession {
  id: string;
  organizationId: string;
  role: Role;
  /** The person, for a member's session; undefined for a session opened with a key. */
  userId: string | undefined;
  lastSeenAt: Date;
  expiresAt: Date;
}

const holderColumns = (holder: SessionHolder) =>
  "apiKeyId" in holder
    ? { api_key_id: holder.apiKeyId, member_id: null }
    : { api_key_id: null, member_id: holder.memberId };

export async function insertBrowserSession(db: Kysely<Database>, session: NewBrowserSession): Promise<void> {
  await db
    .insertInto("browser_sessions")
    .values({
      id: session.id,
      token_hash: session.tokenHash,
      organization_id: session.organizationId,
      ...holderColumns(session),
      created_at: session.createdAt,
      last_seen_at: session.createdAt,
      expires_at: session.expiresAt,
    })
    .execute();
}

/**
 * The session whose token hashes to `tokenHash`, when it has not ended, has not reached its absolute
 * expiry, has been seen since `idleSince`, and its API key is not revoked or its member not removed
 * (a removed member's sessions are deleted with the membership). One indexed lookup, as every
 * request of the web application pays for it; a member's role is read here, so a change of role
 * holds from the next verification.
 */
export async function findOptionalActiveBrowserSession(
  db: Kysely<Database>,
  tokenHash: string,
  now: Date,
  idleSince: Date,
): Promise<ActiveBrowserSession | undefined> {
  const row = await db
    .selectFrom("browser_sessions as s")
    .leftJoin("api_keys as k", "k.id", "s.api_key_id")
    .leftJoin("members as m", "m.id", "s.member_id")
    .select(({ fn, ref }) => [
      "s.id",
      "s.organization_id as organizationId",
      fn.coalesce(ref("m.role"), ref("k.role")).as("role"),
      "m.user_id as userId",
      "s.last_seen_at as lastSeenAt",
      "s.expires_at as expiresAt",
    ])
    .where("s.token_hash", "=", tokenHash)
    .where("s.ended_at", "is", null)
    .where("s.expires_at", ">", now)
    .where("s.last_seen_at", ">", idleSince)
    .where((eb) =>
      eb.or([
        eb.and([eb("s.api_key_id", "is not", null), eb("k.revoked_at", "is", null)]),
        eb("m.id", "is not", null),
      ]),
    )
    .executeTakeFirst();
  return row && { ...row, role: roleSchema.parse(row.role), userId: row.userId ?? undefined };
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

/** The sessions of a member that have not ended (removing the member ends them all). */
export async function listOpenBrowserSessionIdsOfMember(
  db: Kysely<Database>,
  memberId: string,
): Promise<string[]> {
  const rows = await db
    .selectFrom("browser_sessions")
    .select("id")
    .where("member_id", "=", memberId)
    .where("ended_at", "is", null)
    .execute();
  return rows.map((row) => row.id);
}

export type NewSignInCode = {
  codeHash: string;
  createdAt: Date;
  expiresAt: Date;
  /** For a code sent by e-mail: the address it was sent to. */
  email?: string | undefined;
} & SessionHolder;

export async function insertSignInCode(db: Kysely<Database>, code: NewSignInCode): Promise<void> {
  await db
    .insertInto("sign_in_codes")
    .values({
      code_hash: code.codeHash,
      ...holderColumns(code),
      email: code.email ?? null,
      created_at: code.createdAt,
      expires_at: code.expiresAt,
    })
    .execute();
}

/** What a used code was issued for: a key, or a member (with the address a mailed code went to). */
export type RedeemedSignInCode = { apiKeyId: string } | { memberId: string; email: string | null };

/**
 * Marks the code used and answers what it was issued for, when the code exists, is unused and
 * unexpired. One statement: two sign-ins with the same code cannot both succeed.
 */
export async function updateSignInCodeUsed(
  db: Kysely<Database>,
  codeHash: string,
  now: Date,
): Promise<RedeemedSignInCode | undefined> {
  const row = await db
    .updateTable("sign_in_codes")
    .set({ used_at: now })
    .where("code_hash", "=", codeHash)
    .where("used_at", "is", null)
    .where("expires_at", ">", now)
    .returning(["api_key_id as apiKeyId", "member_id as memberId", "email"])
    .executeTakeFirst();
  if (!row) return undefined;
  if (row.memberId !== null) return { memberId: row.memberId, email: row.email };
  return row.apiKeyId === null ? undefined : { apiKeyId: row.apiKeyId };
}

/** Why a code no longer works, when it still exists: so that the person is told what to do. */
export async function findOptionalSignInCodeState(
  db: Kysely<Database>,
  codeHash: string,
): Promise<{ used: boolean } | undefined> {
  const row = await db
    .selectFrom("sign_in_codes")
    .select("used_at as usedAt")
    .where("code_hash", "=", codeHash)
    .executeTakeFirst();
  return row && { used: row.usedAt !== null };
}

/** Sign-in codes are single-use and short-lived: once expired they are of no use to anyone. */
export async function deleteExpiredSignInCodes(db: Kysely<Database>, now: Date): Promise<number> {
  const result = await db.deleteFrom("sign_in_codes").where("expires_at", "<", now).executeTakeFirst();
  return Number(result.numDeletedRows);
}
