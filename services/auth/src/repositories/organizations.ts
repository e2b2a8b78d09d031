import type { Database } from "@svc/db";
import { type Kysely, sql, type Transaction } from "kysely";

export interface OrganizationRecord {
  id: string;
  name: string;
  slug: string;
  createdAt: Date;
}

const columns = ["id", "name", "slug", "created_at as createdAt"] as const;

/** Slugs equal to `base` or starting with `base-`: the candidates a new suffix must avoid. */
export async function listOrganizationSlugsLike(db: Kysely<Database>, base: string): Promise<string[]> {
  const rows = await db
    .selectFrom("organizations")
    .select("slug")
    .where((eb) => eb.or([eb("slug", "=", base), eb("slug", "like", `${base}-%`)]))
    .execute();
  return rows.map((row) => row.slug);
}

/** Inserts unless the slug is taken (even by a transaction committing meanwhile): then undefined. */
export async function insertOrganizationIfSlugFree(
  db: Kysely<Database>,
  organization: OrganizationRecord,
): Promise<OrganizationRecord | undefined> {
  return db
    .insertInto("organizations")
    .values({
      id: organization.id,
      name: organization.name,
      slug: organization.slug,
      created_at: organization.createdAt,
    })
    .onConflict((oc) => oc.column("slug").doNothing())
    .returning(columns)
    .executeTakeFirst();
}

export async function findOptionalOrganization(
  db: Kysely<Database>,
  id: string,
): Promise<OrganizationRecord | undefined> {
  return db.selectFrom("organizations").select(columns).where("id", "=", id).executeTakeFirst();
}

export async function findOptionalOldestOrganization(
  db: Kysely<Database>,
): Promise<OrganizationRecord | undefined> {
  return db
    .selectFrom("organizations")
    .select(columns)
    .orderBy("created_at", "asc")
    .orderBy("id", "asc")
    .limit(1)
    .executeTakeFirst();
}

/** Serialises changes to an organisation's keys and members until the transaction ends. */
export async function lockOrganization(trx: Transaction<Database>, id: string): Promise<void> {
  await trx.selectFrom("organizations").select("id").where("id", "=", id).forUpdate().execute();
}

/** Serialises bootstraps (several processes may start at once on one database) until the transaction ends. */
export async function lockBootstrap(trx: Transaction<Database>): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(hashtext('svc.auth.bootstrap'))`.execute(trx);
}
