import type { PGlite } from "@electric-sql/pglite";
import type { PostgresPool, PostgresPoolClient, PostgresQueryResult } from "kysely";

/**
 * PGlite has one connection. This gives Kysely's Postgres driver a pool of exactly that connection:
 * a checkout waits until the previous one is released, so a transaction owns it from BEGIN to COMMIT.
 */
export function pglitePool(pglite: PGlite): PostgresPool {
  let queue: Promise<void> = Promise.resolve();
  const client = {
    async query<R>(sql: string, parameters: readonly unknown[]): Promise<PostgresQueryResult<R>> {
      const result = await pglite.query<R>(sql, parameters as unknown[]);
      return {
        command: commandOf(sql),
        rowCount: result.affectedRows ?? result.rows.length,
        rows: result.rows,
      };
    },
  };
  return {
    connect(): Promise<PostgresPoolClient> {
      let release!: () => void;
      const turn = new Promise<void>((resolve) => {
        release = resolve;
      });
      const ready = queue;
      queue = queue.then(() => turn);
      return ready.then(() => ({ ...client, release }) as unknown as PostgresPoolClient);
    },
    async end(): Promise<void> {
      await queue;
      await pglite.close();
    },
  };
}

function commandOf(sql: string): PostgresQueryResult<unknown>["command"] {
  const match = /^\s*(?:with\b[\s\S]*?\)\s*)?(insert|update|delete|merge|select)\b/i.exec(sql);
  return (match?.[1]?.toUpperCase() ?? "SELECT") as PostgresQueryResult<unknown>["command"];
}
