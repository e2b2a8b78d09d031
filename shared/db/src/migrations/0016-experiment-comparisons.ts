import { type Kysely, sql } from "kysely";

/**
 * Comparisons kept, so that paging through two large experiments reads an index instead of judging
 * every row again per page. `experiment_revisions` counts the writes to an experiment's results and
 * scores (a missing row is revision 0); a comparison is labelled with the revisions of its two sides
 * and is built again once either has moved on. Its rows are keyed by rank (the change's order) and row id,
 * the order in which they are listed.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE experiment_revisions (
      experiment_id text PRIMARY KEY REFERENCES experiments (id) ON DELETE CASCADE,
      revision bigint NOT NULL
    )
  `.execute(db);
  await sql`
    CREATE TABLE experiment_comparisons (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      a_id text NOT NULL REFERENCES experiments (id) ON DELETE CASCADE,
      b_id text NOT NULL REFERENCES experiments (id) ON DELETE CASCADE,
      a_revision bigint NOT NULL,
      b_revision bigint NOT NULL,
      summary jsonb,
      created_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (a_id, b_id, a_revision, b_revision)
    )
  `.execute(db);
  await sql`CREATE INDEX experiment_comparisons_by_b ON experiment_comparisons (b_id)`.execute(db);
  await sql`
    CREATE TABLE experiment_compared_rows (
      comparison_id bigint NOT NULL,
      rank smallint NOT NULL,
      row_id text NOT NULL,
      change text NOT NULL,
      row_changed boolean NOT NULL,
      PRIMARY KEY (comparison_id, rank, row_id)
    )
  `.execute(db);
  // Rows go with their comparison, by one statement per deleting statement rather than a foreign key's
  // trigger per row: a comparison of 100,000 rows is built in one insert.
  await sql`
    CREATE FUNCTION experiment_comparisons_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      DELETE FROM experiment_compared_rows c USING deleted d WHERE c.comparison_id = d.id;
      RETURN NULL;
    END
    $$
  `.execute(db);
  await sql`
    CREATE TRIGGER experiment_comparisons_deleted AFTER DELETE ON experiment_comparisons
    REFERENCING OLD TABLE AS deleted FOR EACH STATEMENT EXECUTE FUNCTION experiment_comparisons_deleted()
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE IF EXISTS experiment_compared_rows`.execute(db);
  await sql`DROP TRIGGER IF EXISTS experiment_comparisons_deleted ON experiment_comparisons`.execute(db);
  await sql`DROP FUNCTION IF EXISTS experiment_comparisons_deleted()`.execute(db);
  await sql`DROP TABLE IF EXISTS experiment_comparisons`.execute(db);
  await sql`DROP TABLE IF EXISTS experiment_revisions`.execute(db);
}
