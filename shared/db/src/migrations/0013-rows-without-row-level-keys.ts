import { type Kysely, sql } from "kysely";

/**
 * Rows and revisions stop checking, row by row, that their dataset exists: every write of rows
 * happens in a transaction that has locked the dataset's row (it took the version number), so the
 * dataset is there, and a deletion waits for it. The check cost a lookup and a lock per row written,
 * a third of a million-row import. Deleting a dataset still deletes its rows and history, now by a
 * trigger on the dataset (docs/decisions/0015-rows-without-row-level-keys.md).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE OR REPLACE FUNCTION delete_dataset_rows() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      DELETE FROM dataset_rows WHERE dataset_id = OLD.id;
      DELETE FROM row_revisions WHERE dataset_id = OLD.id;
      RETURN OLD;
    END
    $$`.execute(db);
  await sql`
    CREATE TRIGGER datasets_delete_rows AFTER DELETE ON datasets
    FOR EACH ROW EXECUTE FUNCTION delete_dataset_rows()`.execute(db);
  await sql`ALTER TABLE dataset_rows DROP CONSTRAINT IF EXISTS dataset_rows_dataset_id_fkey`.execute(db);
  await sql`ALTER TABLE row_revisions DROP CONSTRAINT IF EXISTS row_revisions_dataset_id_fkey`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER TABLE dataset_rows ADD CONSTRAINT dataset_rows_dataset_id_fkey
    FOREIGN KEY (dataset_id) REFERENCES datasets(id) ON DELETE CASCADE`.execute(db);
  await sql`
    ALTER TABLE row_revisions ADD CONSTRAINT row_revisions_dataset_id_fkey
    FOREIGN KEY (dataset_id) REFERENCES datasets(id) ON DELETE CASCADE`.execute(db);
  await sql`DROP TRIGGER IF EXISTS datasets_delete_rows ON datasets`.execute(db);
  await sql`DROP FUNCTION IF EXISTS delete_dataset_rows()`.execute(db);
}
