import { DomainError, type Role, roleSchema } from "@svc/contracts";
import type { Database } from "@svc/db";
import { type ExpressionBuilder, type Kysely, sql } from "kysely";

export interface ApiKeyRecord {
  id: string;
  organizationId: string;
  name: string;
  role: Role;
  tokenLast4: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  /** The person who made it, with their name as it is now. */
  createdBy: { id: string; name: string } | null;
}

export interface NewApiKey {
  id: string;
  organizationId: string;
  name: string;
  role: Role;
  tokenHash: string;
  tokenLast4: string;
  createdAt: Date;
  createdByUserId?: string | null | undefined;
}

/** A key's columns, and its maker's current name read beside them (a rename shows on their keys). */
const columns = (eb: ExpressionBuilder<Database, "api_keys">) =>
  [
    "id",
    "organization_id as organizationId",
    "name",
    "role",
    "token_last4 as tokenLast4",
    "created_at as createdAt",
    "last_used_at as lastUsedAt",
    "created_by_user_id as createdByUserId",
    eb
      .selectFrom("users as creator")
      .select("creator.name")
      .whereRef("creator.id", "=", "api_keys.created_by_user_id")
      .as("createdByName"),
  ] as const;

interface Row extends Omit<ApiKeyRecord, "role" | "createdBy"> {
  role: string;
  createdByUserId: string | null;
  createdByName: string | null;
}

const toRecord = ({ createdByUserId, createdByName, ...row }: Row): ApiKeyRecord => ({
  ...row,
  role: roleSchema.parse(row.role),
  createdBy: createdByUserId === null ? null : { id: createdByUserId, name: createdByName ?? "" },
});

const keyNotFound = (id: string) =>
  new DomainError("not_found", `API key "${id}" not found; list the organisation's keys to see their ids`);

function activeKeys(db: Kysely<Database>, organizationId: string) {
  return db
    .selectFrom("api_keys")
    .select(columns)
    .where("organization_id", "=", organizationId)
    .where("revoked_at", "is", null);
}

export async function insertApiKey(db: Kysely<Database>, key: NewApiKey): Promise<ApiKeyRecord> {
  const row = await db
    .insertInto("api_keys")
    .values({
      id: key.id,
      organization_id: key.organizationId,
      name: key.name,
      role: key.role,
      token_hash: key.tokenHash,
      token_last4: key.tokenLast4,
      created_at: key.createdAt,
      created_by_user_id: key.createdByUserId ?? null,
    })
    .returning(columns)
    .executeTakeFirstOrThrow();
  return toRecord(row);
}

export async function listActiveApiKeys(
  db: Kysely<Database>,
  organizationId: string,
): Promise<ApiKeyRecord[]> {
  const rows = await activeKeys(db, organizationId)
    .orderBy("created_at", "asc")
    .orderBy("id", "asc")
    .execute();
  return rows.map(toRecord);
}

/** A key of this organisation that is not revoked; anything else is "not found", never "forbidden". */
export async function findActiveApiKey(
  db: Kysely<Database>,
  organizationId: string,
  id: string,
): Promise<ApiKeyRecord> {
  const row = await activeKeys(db, organizationId).where("id", "=", id).executeTakeFirst();
  if (!row) throw keyNotFound(id);
  return toRecord(row);
}

/** An active key by id alone: for a sign-in code, which names its key and nothing else. */
export async function findOptionalActiveApiKeyById(
  db: Kysely<Database>,
  id: string,
): Promise<ApiKeyRecord | undefined> {
  const row = await db
    .selectFrom("api_keys")
    .select(columns)
    .where("id", "=", id)
    .where("revoked_at", "is", null)
    .executeTakeFirst();
  return row && toRecord(row);
}

export async function findOptionalActiveApiKeyByHash(
  db: Kysely<Database>,
  tokenHash: string,
): Promise<ApiKeyRecord | undefined> {
  const row = await db
    .selectFrom("api_keys")
    .select(columns)
    .where("token_hash", "=", tokenHash)
    .where("revoked_at", "is", null)
    .executeTakeFirst();
  return row && toRecord(row);
}

/** Revoked keys count too: a revoked token must never come back. */
export async function existsApiKeyHash(db: Kysely<Database>, tokenHash: string): Promise<boolean> {
  const row = await db
    .selectFrom("api_keys")
    .select("id")
    .where("token_hash", "=", tokenHash)
    .executeTakeFirst();
  return row !== undefined;
}

export async function countActiveOwnerKeys(db: Kysely<Database>, organizationId: string): Promise<number> {
  const row = await db
    .selectFrom("api_keys")
    .select((eb) => eb.fn.countAll<string>().as("count"))
    .where("organization_id", "=", organizationId)
    .where("role", "=", "owner")
    .where("revoked_at", "is", null)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export async function updateApiKeyName(
  db: Kysely<Database>,
  organizationId: string,
  id: string,
  name: string,
): Promise<ApiKeyRecord> {
  const row = await db
    .updateTable("api_keys")
    .set({ name })
    .where("id", "=", id)
    .where("organization_id", "=", organizationId)
    .where("revoked_at", "is", null)
    .returning(columns)
    .executeTakeFirst();
  if (!row) throw keyNotFound(id);
  return toRecord(row);
}

export async function updateApiKeyRevoked(db: Kysely<Database>, id: string, at: Date): Promise<void> {
  await db.updateTable("api_keys").set({ revoked_at: at }).where("id", "=", id).execute();
}

/** The first owner's key made before people existed becomes theirs. */
export async function updateApiKeyCreator(db: Kysely<Database>, id: string, userId: string): Promise<void> {
  await db.updateTable("api_keys").set({ created_by_user_id: userId }).where("id", "=", id).execute();
}

/**
 * Records a use of the key unless one was recorded less than a minute ago. The condition lives in
 * the statement so that replicas verifying the same key at once still write at most once a minute.
 */
export async function updateApiKeyLastUsed(db: Kysely<Database>, id: string): Promise<void> {
  await db
    .updateTable("api_keys")
    .set({ last_used_at: sql<Date>`now()` })
    .where("id", "=", id)
    .where((eb) =>
      eb.or([
        eb("last_used_at", "is", null),
        eb("last_used_at", "<", sql<Date>`now() - interval '1 minute'`),
      ]),
    )
    .execute();
}
