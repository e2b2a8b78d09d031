import { type Kysely, sql } from "kysely";

/**
 * "Missing expected output", the filter curators use most: the rows of a dataset whose expected
 * output is unset, in creation order, served by an index of those rows alone, so that its first page
 * costs the same on a million rows as on a hundred however few rows still lack one. The predicate is
 * exactly the one the reader writes (repositories/rows.ts), or the planner would not use it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE INDEX IF NOT EXISTS dataset_rows_missing_expected_output
    ON dataset_rows (dataset_id, created_at, row_id)
    WHERE (expected_output IS NULL OR expected_output = 'null'::jsonb)
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX IF EXISTS dataset_rows_missing_expected_output`.execute(db);
}
