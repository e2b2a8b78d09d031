import { type Kysely, sql } from "kysely";

/**
 * Row search finds a rare term through a trigram index of the revisions' cells
 * (docs/decisions/0046-row-search.md). This migration installs `pg_trgm` where the server offers it
 * and the role may install it; the index itself is built after the migrations, without a transaction,
 * by `buildSearchIndex` (search-index.ts): `CREATE INDEX CONCURRENTLY`, which lets edits go on
 * while it reads a large table, cannot run inside the transaction every migration runs in. Without
 * `pg_trgm` nothing is built and search stays a scan of the dataset's rows, exact all the same.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const { rows } = await sql<{ installed: boolean }>`
    SELECT installed_version IS NOT NULL AS installed FROM pg_available_extensions WHERE name = 'pg_trgm'`.execute(
    db,
  );
  if (rows.length === 0 || rows[0]?.installed) return;
  // A role that may not install extensions gets an error that would end the migrations' transaction;
  // the savepoint keeps it to this statement.
  await sql`SAVEPOINT install_pg_trgm`.execute(db);
  try {
    await sql`CREATE EXTENSION IF NOT EXISTS pg_trgm`.execute(db);
    await sql`RELEASE SAVEPOINT install_pg_trgm`.execute(db);
  } catch {
    await sql`ROLLBACK TO SAVEPOINT install_pg_trgm`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX IF EXISTS row_revisions_search`.execute(db);
}
