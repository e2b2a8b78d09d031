import { type Kysely, sql } from "kysely";

/**
 * The traces that had an error, newest first, without reading the others: the traces list filtered
 * on errors (alone or with a model, a tag…) read the project's traces from the newest until a page of
 * failed ones was found, some thousands of rows a page when one trace in twenty fails
 * (docs/performance.md, "Monitoring"). Partial, so it holds those traces only: the ingest writes it
 * for a failed trace alone.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE INDEX traces_with_errors ON traces (project_id, start_ns, trace_id) WHERE error_count > 0
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX IF EXISTS traces_with_errors`.execute(db);
}
