import { type Kysely, sql } from "kysely";

/**
 * `datasets.pending_import_id`: the import writing the dataset's next version in pieces, each its
 * own transaction (decision 0055). Its rows are written under that version, which no reader sees
 * until the import's last transaction makes it the current one; meanwhile no other change takes a
 * version of the dataset, so the number stays the import's.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE datasets ADD COLUMN pending_import_id text`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE datasets DROP COLUMN IF EXISTS pending_import_id`.execute(db);
}
