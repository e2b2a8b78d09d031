import pg from "pg";

/**
 * The row locks of some datasets, held by a transaction of the test's own: every writer's edit of
 * them waits inside PostgreSQL, in flight, until `release`. Each writer is told apart by the
 * `application_name` of its connections (PGAPPNAME in its environment).
 */
export interface DatasetLocks {
  /** How many of `applicationName`'s sessions wait on a lock right now. */
  waiting(applicationName: string): Promise<number>;
  release(): Promise<void>;
}

export async function holdDatasetLocks(
  databaseUrl: string,
  datasetIds: readonly string[],
): Promise<DatasetLocks> {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  await db.query("BEGIN");
  // In id order, as the writers take them: the test waits for a batch in progress, never deadlocks one.
  await db.query("SELECT id FROM datasets WHERE id = ANY($1::text[]) ORDER BY id FOR UPDATE", [
    [...datasetIds],
  ]);
  let released = false;
  return {
    waiting: async (applicationName) => {
      const result = await db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_stat_activity
         WHERE datname = current_database() AND application_name = $1 AND wait_event_type = 'Lock'`,
        [applicationName],
      );
      return result.rows[0]?.n ?? 0;
    },
    release: async () => {
      if (released) return;
      released = true;
      await db.query("COMMIT");
      await db.end();
    },
  };
}
