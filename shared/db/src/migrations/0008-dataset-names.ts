import { type Kysely, sql } from "kysely";

/**
 * Dataset names unique per project whatever their case, enforced by the database: checking first
 * and writing after let two concurrent creates or renames take one name. Names that such a race
 * already duplicated get their (unique) slug appended, so the index can be built.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    UPDATE datasets d SET name = d.name || ' (' || d.slug || ')'
    FROM (
      SELECT id, row_number() OVER (PARTITION BY project_id, lower(name) ORDER BY created_at, id) AS n
      FROM datasets
    ) ranked
    WHERE ranked.id = d.id AND ranked.n > 1`.execute(db);
  await sql`CREATE UNIQUE INDEX datasets_project_name ON datasets (project_id, lower(name))`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX IF EXISTS datasets_project_name`.execute(db);
}
