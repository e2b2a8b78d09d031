import { builtinFields } from "@svc/contracts";
import { type Kysely, sql } from "kysely";
import { storedColumnOf } from "./revisions";
import type { Database } from "./schema";

/**
 * The trigram index row search reads (docs/decisions/0046-row-search.md): one GIN index over the
 * revisions, a column for each built-in cell's JSON text and one for the text of the custom values,
 * each spelled exactly as `matchesSearch` (row-filters.ts) tests it, or the planner would not match
 * them. It covers every revision, so a search at any version can use it; the live rows are the live
 * revisions, so the current version's search reads them there too.
 */
const SEARCH_INDEX = "row_revisions_search";
const searchColumns = [
  ...builtinFields.map((field) => sql.raw(`(${storedColumnOf[field]}::text) gin_trgm_ops`)),
  sql`(jsonb_path_query_array(custom, '$.*')::text) gin_trgm_ops`,
];

/**
 * Statistics of each indexed text, drawn from 300 × this many sampled revisions: the planner reads the
 * share of rows a term matches from them, to choose between the index and the ordered scan that stops
 * after a page. The default (100) cannot tell a term in 1% of rows from one in 0.01%.
 */
const STATISTICS_TARGET = 1000;

/** A key of `pg_try_advisory_lock`: one process at a time builds the index. */
const BUILD_LOCK = 4_604_046;

/**
 * Builds the search index when `pg_trgm` is installed and the index is missing or was left unfinished,
 * with `CREATE INDEX CONCURRENTLY`: reads and edits of the revisions go on meanwhile, where a plain
 * `CREATE INDEX` in a migration would hold edits off until it ends (minutes on millions of revisions).
 * One process builds it, under an advisory lock; one that finds the lock taken goes on without waiting,
 * its searches exact and slower until the index is ready. Returns whether this call built it.
 */
export async function buildSearchIndex(db: Kysely<Database>): Promise<boolean> {
  const { rows: installed } = await sql`SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm'`.execute(db);
  if (installed.length === 0) return false;
  // One connection throughout: the session's advisory lock, and statements outside any transaction.
  return db.connection().execute(async (connection) => {
    const { rows: locked } = await sql<{ locked: boolean }>`
      SELECT pg_try_advisory_lock(${BUILD_LOCK}) AS locked`.execute(connection);
    if (!locked[0]?.locked) return false;
    try {
      const { rows: existing } = await sql<{ valid: boolean }>`
        SELECT i.indisvalid AS valid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
        WHERE c.relname = ${SEARCH_INDEX} AND c.relnamespace = current_schema()::regnamespace`.execute(
        connection,
      );
      if (existing[0]?.valid) return false;
      // Behind PgBouncer in transaction mode the session's lock above may have been taken on a server
      // connection another build holds it on: a build in progress is never dropped nor started again.
      const { rows: building } = await sql`
        SELECT 1 FROM pg_stat_progress_create_index WHERE relid = 'row_revisions'::regclass`.execute(
        connection,
      );
      if (building.length > 0) return false;
      // An invalid index is what a build cut short leaves behind; it is dropped and built again.
      if (existing.length > 0) await sql`DROP INDEX CONCURRENTLY ${sql.id(SEARCH_INDEX)}`.execute(connection);
      await sql`
        CREATE INDEX CONCURRENTLY IF NOT EXISTS ${sql.id(SEARCH_INDEX)} ON row_revisions
        USING gin (${sql.join(searchColumns)})`.execute(connection);
      for (let column = 1; column <= searchColumns.length; column++) {
        await sql`ALTER INDEX ${sql.id(SEARCH_INDEX)} ALTER COLUMN ${sql.lit(column)} SET STATISTICS ${sql.lit(STATISTICS_TARGET)}`.execute(
          connection,
        );
      }
      // Until the indexed texts have statistics the planner guesses every term rare and reads the
      // index even for one that most rows hold.
      await sql`ANALYZE row_revisions`.execute(connection);
      return true;
    } finally {
      await sql`SELECT pg_advisory_unlock(${BUILD_LOCK})`.execute(connection);
    }
  });
}
