import { z } from "zod";
import { type DatabaseHandle, openDatabase } from "./connect";
import { migrateToLatest } from "./migrate";
import { parseServerList } from "./server-choice";

export const databaseEnvSchema = z.object({
  DATABASE_URL: z
    .string()
    .min(1, "must be a PostgreSQL URL, e.g. postgres://user@127.0.0.1:5432/svc")
    .superRefine((url, context) => {
      try {
        parseServerList(url);
      } catch (error) {
        context.addIssue({ code: "custom", message: (error as Error).message });
      }
    }),
  DB_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  /** `off` behind PgBouncer (before 1.21) in transaction mode, which loses named prepared statements. */
  DB_PREPARED_STATEMENTS: z
    .enum(["on", "off"], { message: 'must be "on" or "off" ("off" behind PgBouncer in transaction mode)' })
    .default("on"),
});
export type DatabaseEnv = z.output<typeof databaseEnvSchema>;

interface Log {
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/**
 * What PostgreSQL answers when waiting cannot help: the database is not there, or it will not have
 * us. Each comes with what to do about it.
 */
const PERMANENT: Record<string, (url: string) => string> = {
  "3D000": (url) => `create it (${createdbCommand(url)}) or correct the database name in DATABASE_URL`,
  "28P01": () => "correct the user or password in DATABASE_URL",
  "28000": () => "correct the user in DATABASE_URL, or let it connect (pg_hba.conf)",
};

function createdbCommand(url: string): string {
  try {
    const { hostname, port, username, pathname } = new URL(url);
    const options = [
      `-h ${hostname}`,
      port && `-p ${port}`,
      username && `-U ${decodeURIComponent(username)}`,
    ];
    return `createdb ${options.filter(Boolean).join(" ")} ${decodeURIComponent(pathname.slice(1))}`;
  } catch {
    return "createdb";
  }
}

/** DATABASE_URL is set but can never work as it is; the message names the variable, never its password. */
export class DatabaseUnusableError extends Error {
  constructor(
    url: string,
    /** PostgreSQL's SQLSTATE. */
    readonly code: string,
    reason: string,
    advice: string,
  ) {
    super(`DATABASE_URL (${redactUrl(url)}) cannot be used: ${reason}; ${advice}`);
    this.name = "DatabaseUnusableError";
  }
}

/**
 * Opens the service's database and brings its schema up to date, waiting with backoff while
 * PostgreSQL is not there yet (start-up must outwait its dependencies). It gives up at once, with a
 * `DatabaseUnusableError`, when PostgreSQL answers that the database does not exist or that the
 * credentials are wrong: that will not fix itself, and waiting would only hide it.
 */
export async function openDatabaseFromEnv(
  env: Omit<DatabaseEnv, "DB_PREPARED_STATEMENTS"> & Partial<Pick<DatabaseEnv, "DB_PREPARED_STATEMENTS">>,
  logger: Log,
): Promise<DatabaseHandle> {
  let delay = 100;
  for (;;) {
    const handle = await openDatabase({
      url: env.DATABASE_URL,
      poolSize: env.DB_POOL_SIZE,
      preparedStatements: env.DB_PREPARED_STATEMENTS !== "off",
      onError: (error) => logger.error({ err: error }, "database connection lost"),
    });
    try {
      await migrateToLatest(handle.db);
      return handle;
    } catch (error) {
      await handle.close().catch(() => undefined);
      const unusable = unusableDatabase(env.DATABASE_URL, error);
      if (unusable) {
        logger.error({ code: unusable.code }, unusable.message);
        throw unusable;
      }
      logger.warn({ err: error, retryInMs: delay }, "waiting for PostgreSQL");
      await new Promise((resolve) => setTimeout(resolve, delay));
      delay = Math.min(delay * 2, 5_000);
    }
  }
}

function unusableDatabase(url: string, error: unknown): DatabaseUnusableError | undefined {
  if (!(error instanceof Error)) return undefined;
  const code = (error as { code?: unknown }).code;
  if (typeof code !== "string") return undefined;
  const advice = PERMANENT[code];
  // PostgreSQL's own message names the database or the user, never the password.
  return advice === undefined ? undefined : new DatabaseUnusableError(url, code, error.message, advice(url));
}

/** The URL with its password (in the userinfo or a `password` parameter) masked; nothing if unparsable. */
export function redactUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    // libpq's several hosts (`h1:5432,h2:5433`) are no URL host: masked by hand.
    if (!/^postgres(?:ql)?:\/\//i.test(url)) return "not shown: not a URL";
    return url
      .replace(/^(postgres(?:ql)?:\/\/[^:@/?#]*:)[^@/?#]*@/i, "$1***@")
      .replace(/([?&]password=)[^&#]*/gi, "$1***");
  }
  if (parsed.password) parsed.password = "***";
  if (parsed.searchParams.has("password")) parsed.searchParams.set("password", "***");
  return parsed.toString();
}
