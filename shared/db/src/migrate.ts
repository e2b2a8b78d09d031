import { type Kysely, type Migration, type MigrationProvider, Migrator, sql } from "kysely";
import * as initial from "./migrations/0001-initial";
import * as idempotency from "./migrations/0003-idempotency";
import * as traces from "./migrations/0004-traces";
import * as members from "./migrations/0005-members";
import * as oauth from "./migrations/0006-oauth";
import * as deferredLiveRevision from "./migrations/0007-deferred-live-revision";
import * as datasetNames from "./migrations/0008-dataset-names";
import * as jsonbMerge from "./migrations/0009-jsonb-merge";
import * as browserSessions from "./migrations/0010-browser-sessions";
import * as missingExpectedOutput from "./migrations/0011-missing-expected-output";
import * as imports from "./migrations/0012-imports";
import * as rowsWithoutRowLevelKeys from "./migrations/0013-rows-without-row-level-keys";
import * as experiments from "./migrations/0014-experiments";
import * as storedTokensWithheld from "./migrations/0015-stored-tokens-withheld";
import * as experimentComparisons from "./migrations/0016-experiment-comparisons";
import * as experimentRowsWithoutRowChecks from "./migrations/0017-experiment-rows-without-row-checks";
import * as rowCounts from "./migrations/0018-row-counts";
import * as gatewayIdempotencyKeys from "./migrations/0019-gateway-idempotency-keys";
import * as people from "./migrations/0020-people";
import * as monitoring from "./migrations/0022-monitoring";
import * as rowSearch from "./migrations/0025-row-search";
import * as traceListIndexes from "./migrations/0026-trace-list-indexes";
import * as traceFolds from "./migrations/0027-trace-folds";
import * as importInPieces from "./migrations/0028-import-in-pieces";
import type { Database } from "./schema";
import { buildSearchIndex } from "./search-index";

/** Migrations in order. A new one is a new file here; a landed one is never edited. */
const migrations: Record<string, Migration> = {
  "0001-initial": initial,
  "0003-idempotency": idempotency,
  "0004-traces": traces,
  "0005-members": members,
  "0006-oauth": oauth,
  "0007-deferred-live-revision": deferredLiveRevision,
  "0008-dataset-names": datasetNames,
  "0009-jsonb-merge": jsonbMerge,
  "0010-browser-sessions": browserSessions,
  "0011-missing-expected-output": missingExpectedOutput,
  "0012-imports": imports,
  "0013-rows-without-row-level-keys": rowsWithoutRowLevelKeys,
  "0014-experiments": experiments,
  "0015-stored-tokens-withheld": storedTokensWithheld,
  "0016-experiment-comparisons": experimentComparisons,
  "0017-experiment-rows-without-row-checks": experimentRowsWithoutRowChecks,
  "0018-row-counts": rowCounts,
  "0019-gateway-idempotency-keys": gatewayIdempotencyKeys,
  "0020-people": people,
  "0022-monitoring": monitoring,
  "0025-row-search": rowSearch,
  "0026-trace-list-indexes": traceListIndexes,
  "0027-trace-folds": traceFolds,
  "0028-import-in-pieces": importInPieces,
};

const provider: MigrationProvider = { getMigrations: async () => migrations };

/** A key of `pg_advisory_xact_lock`: one process at a time brings the schema up to date. */
const MIGRATION_LOCK = 4_604_045;

/**
 * Brings the schema up to date, then builds what cannot be built inside a migration's transaction (the
 * search index, search-index.ts). Safe to run from several processes at once: the migrations run in
 * one transaction on one connection, which first takes a transaction-scoped lock, so that a second
 * process waits, then finds nothing left to do. (Kysely's own lock is a session's, which PgBouncer in
 * transaction mode may hand to another client between two statements.)
 */
export async function migrateToLatest(db: Kysely<Database>): Promise<string[]> {
  const results = await db.connection().execute(async (connection) => {
    await sql`BEGIN`.execute(connection);
    try {
      await sql`SELECT pg_advisory_xact_lock(${sql.lit(MIGRATION_LOCK)})`.execute(connection);
      // Migrations written in parallel may land out of number order; each is applied once all the same.
      const migrator = new Migrator({
        db: connection,
        provider,
        allowUnorderedMigrations: true,
        disableTransactions: true,
      });
      const { error, results } = await migrator.migrateToLatest();
      if (error) throw error instanceof Error ? error : new Error(String(error));
      await sql`COMMIT`.execute(connection);
      return results;
    } catch (error) {
      await sql`ROLLBACK`.execute(connection).catch(() => undefined);
      throw error;
    }
  });
  await buildSearchIndex(db);
  return (results ?? []).filter((r) => r.status === "Success").map((r) => r.migrationName);
}
