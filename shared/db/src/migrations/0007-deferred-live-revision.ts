import { type Kysely, sql } from "kysely";

/**
 * One live revision per row, checked at commit instead of at each insert: a batch of edits can then
 * end the old revisions and start the new ones in a single statement, whose parts PostgreSQL runs in
 * no set order. The exclusion constraint's index still serves lookups of live revisions.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX IF EXISTS row_revisions_current`.execute(db);
  await sql`
    ALTER TABLE row_revisions ADD CONSTRAINT row_revisions_one_live
    EXCLUDE USING btree (dataset_id WITH =, row_id WITH =) WHERE (version_to IS NULL)
    DEFERRABLE INITIALLY DEFERRED`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE row_revisions DROP CONSTRAINT IF EXISTS row_revisions_one_live`.execute(db);
  await sql`CREATE UNIQUE INDEX row_revisions_current ON row_revisions (dataset_id, row_id) WHERE version_to IS NULL`.execute(
    db,
  );
}
