import { type Kysely, sql } from "kysely";

/**
 * Browser sessions of the web application, and the one-time sign-in codes that open them (hashes
 * only). A session belongs to the API key it was opened with: revoking the key ends it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("browser_sessions")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("token_hash", "text", (c) => c.notNull().unique())
    .addColumn("organization_id", "text", (c) =>
      c.notNull().references("organizations.id").onDelete("cascade"),
    )
    .addColumn("api_key_id", "text", (c) => c.notNull().references("api_keys.id").onDelete("cascade"))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("last_seen_at", "timestamptz", (c) => c.notNull())
    .addColumn("expires_at", "timestamptz", (c) => c.notNull())
    .addColumn("ended_at", "timestamptz")
    .execute();
  await db.schema
    .createIndex("browser_sessions_api_key")
    .on("browser_sessions")
    .column("api_key_id")
    .where(sql.ref("ended_at"), "is", null)
    .execute();

  await db.schema
    .createTable("sign_in_codes")
    .addColumn("code_hash", "text", (c) => c.primaryKey())
    .addColumn("api_key_id", "text", (c) => c.notNull().references("api_keys.id").onDelete("cascade"))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("expires_at", "timestamptz", (c) => c.notNull())
    .addColumn("used_at", "timestamptz")
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("sign_in_codes").ifExists().execute();
  await db.schema.dropTable("browser_sessions").ifExists().execute();
}
