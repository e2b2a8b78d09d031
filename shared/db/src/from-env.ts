import { z } from "zod";
import { type DatabaseHandle, openDatabase } from "./connect";
import { migrateToLatest } from "./migrate";

export const databaseEnvSchema = z.object({
  DATABASE_URL: z.string().min(1, "must be a PostgreSQL URL, e.g. postgres://user@127.0.0.1:5432/svc"),
  DB_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
});
export type DatabaseEnv = z.output<typeof databaseEnvSchema>;

interface Log {
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/**
 * Opens the service's database and brings its schema up to date, waiting with backoff while
 * PostgreSQL is not there yet.
 */
export async function openDatabaseFromEnv(env: DatabaseEnv, logger: Log): Promise<DatabaseHandle> {
  let delay = 100;
  for (;;) {
    const handle = await openDatabase({
      url: env.DATABASE_URL,
      poolSize: env.DB_POOL_SIZE,
      onError: (error) => logger.error({ err: error }, "database connection lost"),
    });
    try {
      await migrateToLatest(handle.db);
      return handle;
    } catch (error) {
      await handle.close().catch(() => undefined);
      logger.warn({ err: error, retryInMs: delay }, "waiting for PostgreSQL");
      await new Promise((resolve) => setTimeout(resolve, delay));
      delay = Math.min(delay * 2, 5_000);
    }
  }
}
