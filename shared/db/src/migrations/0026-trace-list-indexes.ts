import { type Kysely, sql } from "kysely";

/**
 * What a filtered traces list reads in a project of a million traces (docs/performance.md,
 * "Monitoring"):
 *
 * - `traces_with_errors`: the traces that had an error, by start, without the others. A list filtered
 *   on errors (alone or with a model, a tag…) read the project's traces from the newest until a page
 *   of failed ones was found, some thousands of rows a page when one trace in twenty fails. Partial,
 *   so the ingest writes it for a failed trace alone.
 * - `trace_metrics_by_group`: one group's metric rows, bucket after bucket, with the counts a list's
 *   total adds up (`countTraceRecords`): a month of one model's hours is then a few index pages
 *   instead of one table page a row, its rows being spread among every group's.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE INDEX traces_with_errors ON traces (project_id, start_ns, trace_id) WHERE error_count > 0
  `.execute(db);
  await sql`
    CREATE INDEX trace_metrics_by_group ON trace_metrics (project_id, width, grouping, group_value, bucket_start)
    INCLUDE (traces, errors)
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX IF EXISTS trace_metrics_by_group`.execute(db);
  await sql`DROP INDEX IF EXISTS traces_with_errors`.execute(db);
}
