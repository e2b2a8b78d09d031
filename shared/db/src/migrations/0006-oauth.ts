import { type Kysely, sql } from "kysely";

/** OAuth for MCP agents: registered clients, single-use codes, grants and their tokens (hashes only). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("oauth_clients")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("name", "text")
    .addColumn("uri", "text")
    .addColumn("scope", "text")
    .addColumn("redirect_uris", "jsonb", (c) => c.notNull())
    .addColumn("grant_types", "jsonb", (c) => c.notNull())
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable("oauth_grants")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("organization_id", "text", (c) =>
      c.notNull().references("organizations.id").onDelete("cascade"),
    )
    .addColumn("client_id", "text", (c) => c.notNull().references("oauth_clients.id").onDelete("cascade"))
    .addColumn("api_key_id", "text", (c) => c.notNull().references("api_keys.id").onDelete("cascade"))
    .addColumn("role", "text", (c) => c.notNull())
    .addColumn("scope", "text")
    .addColumn("resource", "text")
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("revoked_at", "timestamptz")
    .execute();
  await db.schema
    .createIndex("oauth_grants_organization")
    .on("oauth_grants")
    .column("organization_id")
    .execute();

  await db.schema
    .createTable("oauth_codes")
    .addColumn("code_hash", "text", (c) => c.primaryKey())
    .addColumn("client_id", "text", (c) => c.notNull().references("oauth_clients.id").onDelete("cascade"))
    .addColumn("organization_id", "text", (c) =>
      c.notNull().references("organizations.id").onDelete("cascade"),
    )
    .addColumn("api_key_id", "text", (c) => c.notNull().references("api_keys.id").onDelete("cascade"))
    .addColumn("role", "text", (c) => c.notNull())
    .addColumn("redirect_uri", "text", (c) => c.notNull())
    .addColumn("code_challenge", "text", (c) => c.notNull())
    .addColumn("scope", "text")
    .addColumn("resource", "text")
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("expires_at", "timestamptz", (c) => c.notNull())
    .addColumn("used_at", "timestamptz")
    // The grant this code was exchanged for: a second exchange revokes it.
    .addColumn("grant_id", "text", (c) => c.references("oauth_grants.id").onDelete("cascade"))
    .execute();

  await db.schema
    .createTable("oauth_tokens")
    .addColumn("token_hash", "text", (c) => c.primaryKey())
    .addColumn("grant_id", "text", (c) => c.notNull().references("oauth_grants.id").onDelete("cascade"))
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("expires_at", "timestamptz", (c) => c.notNull())
    .addColumn("revoked_at", "timestamptz")
    .execute();
  await db.schema.createIndex("oauth_tokens_grant").on("oauth_tokens").column("grant_id").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ["oauth_tokens", "oauth_codes", "oauth_grants", "oauth_clients"]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
