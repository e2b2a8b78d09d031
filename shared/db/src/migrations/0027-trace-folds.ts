import { type Kysely, sql } from "kysely";

/**
 * `trace_folds`: the traces whose spans changed since their summary in `traces` and their share of
 * `trace_metrics` were last computed (decision 0051). The ingest writes a trace's mark in the
 * transaction of its spans; folding the trace recomputes both from the stored spans and deletes the
 * mark in one transaction, so a mark is never lost and a fold is never half done. A handful of rows
 * at a time: one a trace waiting, none once folded.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE trace_folds (
      project_id text NOT NULL,
      trace_id text NOT NULL,
      marked_at timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT trace_folds_pk PRIMARY KEY (project_id, trace_id)
    )
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE IF EXISTS trace_folds`.execute(db);
}
