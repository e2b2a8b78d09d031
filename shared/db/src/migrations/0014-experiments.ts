import { type Kysely, sql } from "kysely";

/**
 * Experiments: a run over one dataset version (`version`), its results (one per row, replaced when the
 * row is recorded again) and its scores (one per result and name, or per experiment and name with the
 * row id ''; row ids are never empty). A score's value is a number (`value_number`, booleans as 1 or 0
 * so that means and comparisons read one column) or a category (`value_text`); `value_kind` says which
 * it was sent as. The base experiment is not a foreign key: deleting it leaves what was carried.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE experiments (
      id text PRIMARY KEY,
      organization_id text NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
      dataset_id text NOT NULL REFERENCES datasets (id) ON DELETE CASCADE,
      name text NOT NULL,
      version integer NOT NULL,
      base_experiment_id text,
      metadata jsonb NOT NULL DEFAULT 'null',
      status text NOT NULL,
      evaluators jsonb NOT NULL,
      row_count integer NOT NULL,
      actor_kind text NOT NULL,
      actor_id text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      finished_at timestamptz
    )
  `.execute(db);
  await sql`CREATE INDEX experiments_by_dataset ON experiments (dataset_id, created_at DESC, id DESC)`.execute(
    db,
  );
  await sql`
    CREATE TABLE experiment_results (
      experiment_id text NOT NULL REFERENCES experiments (id) ON DELETE CASCADE,
      row_id text NOT NULL,
      row_version integer NOT NULL,
      output jsonb NOT NULL,
      trace_id text,
      latency_ms double precision,
      tokens integer,
      cost_microcents bigint,
      error text,
      carried_from text,
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (experiment_id, row_id)
    )
  `.execute(db);
  await sql`
    CREATE TABLE experiment_scores (
      experiment_id text NOT NULL REFERENCES experiments (id) ON DELETE CASCADE,
      row_id text NOT NULL,
      name text NOT NULL,
      value_kind text NOT NULL,
      value_number double precision,
      value_text text,
      source text NOT NULL,
      comment text,
      actor_kind text NOT NULL,
      actor_id text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (experiment_id, row_id, name)
    )
  `.execute(db);
  await sql`CREATE INDEX experiment_scores_by_name ON experiment_scores (experiment_id, name)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE IF EXISTS experiment_scores`.execute(db);
  await sql`DROP TABLE IF EXISTS experiment_results`.execute(db);
  await sql`DROP TABLE IF EXISTS experiments`.execute(db);
}
