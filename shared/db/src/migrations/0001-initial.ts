import { type CreateTableBuilder, type Kysely, sql } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("organizations")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("slug", "text", (c) => c.notNull().unique())
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable("api_keys")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("organization_id", "text", (c) =>
      c.notNull().references("organizations.id").onDelete("cascade"),
    )
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("role", "text", (c) => c.notNull())
    .addColumn("token_hash", "text", (c) => c.notNull().unique())
    .addColumn("token_last4", "text", (c) => c.notNull())
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("last_used_at", "timestamptz")
    .addColumn("revoked_at", "timestamptz")
    .execute();
  await db.schema.createIndex("api_keys_organization").on("api_keys").column("organization_id").execute();

  await db.schema
    .createTable("projects")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("organization_id", "text", (c) =>
      c.notNull().references("organizations.id").onDelete("cascade"),
    )
    .addColumn("slug", "text", (c) => c.notNull())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint("projects_organization_slug", ["organization_id", "slug"])
    .execute();

  await db.schema
    .createTable("datasets")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("organization_id", "text", (c) => c.notNull())
    .addColumn("project_id", "text", (c) => c.notNull().references("projects.id").onDelete("cascade"))
    .addColumn("slug", "text", (c) => c.notNull())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("description", "text")
    .addColumn("current_version", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint("datasets_project_slug", ["project_id", "slug"])
    .execute();

  await db.schema
    .createTable("dataset_columns")
    .addColumn("dataset_id", "text", (c) => c.notNull().references("datasets.id").onDelete("cascade"))
    .addColumn("identifier", "text", (c) => c.notNull())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("field", "text")
    .addColumn("position", "integer", (c) => c.notNull())
    .addColumn("removed_at", "timestamptz")
    .addPrimaryKeyConstraint("dataset_columns_pk", ["dataset_id", "identifier"])
    .execute();

  await db.schema
    .createTable("dataset_rows")
    .addColumn("dataset_id", "text", (c) => c.notNull().references("datasets.id").onDelete("cascade"))
    .addColumn("row_id", "text", (c) => c.notNull())
    .$call(addCells)
    .addColumn("created_at", "timestamptz", (c) => c.notNull())
    .addColumn("version", "integer", (c) => c.notNull())
    .addPrimaryKeyConstraint("dataset_rows_pk", ["dataset_id", "row_id"])
    .execute();
  await db.schema
    .createIndex("dataset_rows_created")
    .on("dataset_rows")
    .columns(["dataset_id", "created_at", "row_id"])
    .execute();

  // History: one revision per change of a row, valid for versions [version_from, version_to).
  await db.schema
    .createTable("row_revisions")
    .addColumn("dataset_id", "text", (c) => c.notNull().references("datasets.id").onDelete("cascade"))
    .addColumn("row_id", "text", (c) => c.notNull())
    .addColumn("version_from", "integer", (c) => c.notNull())
    .addColumn("version_to", "integer")
    .addColumn("deleted", "boolean", (c) => c.notNull().defaultTo(false))
    .$call(addCells)
    .addColumn("created_at", "timestamptz", (c) => c.notNull())
    .addPrimaryKeyConstraint("row_revisions_pk", ["dataset_id", "row_id", "version_from"])
    .execute();
  await sql`CREATE UNIQUE INDEX row_revisions_current ON row_revisions (dataset_id, row_id) WHERE version_to IS NULL`.execute(
    db,
  );
  await db.schema
    .createIndex("row_revisions_created")
    .on("row_revisions")
    .columns(["dataset_id", "created_at", "row_id", "version_from"])
    .execute();
  await db.schema
    .createIndex("row_revisions_from")
    .on("row_revisions")
    .columns(["dataset_id", "version_from"])
    .execute();
  await sql`CREATE INDEX row_revisions_to ON row_revisions (dataset_id, version_to) WHERE version_to IS NOT NULL`.execute(
    db,
  );

  await db.schema
    .createTable("dataset_versions")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("dataset_id", "text", (c) => c.notNull().references("datasets.id").onDelete("cascade"))
    .addColumn("version", "integer", (c) => c.notNull())
    .addColumn("operation", "text", (c) => c.notNull())
    .addColumn("rows_inserted", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("rows_updated", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("rows_deleted", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("actor_kind", "text", (c) => c.notNull())
    .addColumn("actor_id", "text", (c) => c.notNull())
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint("dataset_versions_dataset_version", ["dataset_id", "version"])
    .execute();
}

/** A row's cells: the live row and each of its revisions hold the same. */
function addCells<T extends string, C extends string>(table: CreateTableBuilder<T, C>) {
  return table
    .addColumn("input", "jsonb")
    .addColumn("output", "jsonb")
    .addColumn("expected_output", "jsonb")
    .addColumn("metadata", "jsonb")
    .addColumn("custom", "jsonb", (c) => c.notNull().defaultTo(sql`'{}'::jsonb`));
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    "dataset_versions",
    "row_revisions",
    "dataset_rows",
    "dataset_columns",
    "datasets",
    "projects",
    "api_keys",
    "organizations",
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
