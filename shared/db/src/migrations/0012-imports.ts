import { type Kysely, sql } from "kysely";

/**
 * File imports. `imports` keeps each import's progress and outcome (the state a client polls), and
 * the Idempotency-Key it came with, so that a retry finds the first import. `import_rows` is where an
 * import's parsed rows wait until the whole file has been read: only then does one short transaction
 * move them into the dataset as one version, so that reading a large file never holds the dataset's
 * lock, and a file that fails half-way leaves nothing in the dataset. Staged rows go when the import
 * ends either way; an import whose writer died is failed and cleared by the next writer that starts.
 * UNLOGGED: staged rows are rebuilt from the file, never recovered after a crash.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE imports (
      id text PRIMARY KEY,
      organization_id text NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
      dataset_id text NOT NULL REFERENCES datasets (id) ON DELETE CASCADE,
      idempotency_key text,
      state text NOT NULL,
      format text NOT NULL,
      mode text NOT NULL,
      bytes_read bigint NOT NULL DEFAULT 0,
      rows_read bigint NOT NULL DEFAULT 0,
      version_id text,
      version integer,
      rows_inserted integer,
      rows_updated integer,
      error jsonb,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      finished_at timestamptz
    )
  `.execute(db);
  await sql`CREATE UNIQUE INDEX imports_idempotency ON imports (organization_id, idempotency_key) WHERE idempotency_key IS NOT NULL`.execute(
    db,
  );
  await sql`CREATE INDEX imports_running ON imports (updated_at) WHERE state IN ('receiving', 'running')`.execute(
    db,
  );
  await sql`
    CREATE UNLOGGED TABLE import_rows (
      import_id text NOT NULL,
      seq integer NOT NULL,
      line bigint NOT NULL,
      row_id text NOT NULL,
      cells jsonb NOT NULL,
      custom jsonb NOT NULL,
      PRIMARY KEY (import_id, seq)
    )
  `.execute(db);
  await sql`CREATE INDEX import_rows_row_id ON import_rows (import_id, row_id)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE IF EXISTS import_rows`.execute(db);
  await sql`DROP TABLE IF EXISTS imports`.execute(db);
}
