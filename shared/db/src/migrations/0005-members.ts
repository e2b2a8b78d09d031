import { type Kysely, sql } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("members")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("organization_id", "text", (c) =>
      c.notNull().references("organizations.id").onDelete("cascade"),
    )
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("role", "text", (c) => c.notNull())
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint("members_organization_email", ["organization_id", "email"])
    .execute();
  await db.schema
    .createIndex("members_organization_created")
    .on("members")
    .columns(["organization_id", "created_at", "id"])
    .execute();

  // Project names became editable with this release; the index keeps two projects of one organisation
  // from sharing a name that differs only in case. Existing rows cannot collide: until now a name
  // fixed its slug, and slugs are lower-case and already unique per organisation.
  await sql`CREATE UNIQUE INDEX projects_organization_name ON projects (organization_id, lower(name))`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX IF EXISTS projects_organization_name`.execute(db);
  await db.schema.dropTable("members").ifExists().execute();
}
