import { mkdirSync } from "node:fs";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { Kysely, PostgresDialect, sql } from "kysely";
import { from as copyFromStream, to as copyToStream } from "pg-copy-streams";
import { commitAwarePool } from "./commit-outcomes";
import { pglitePool } from "./pglite-pool";
import { preparingPool } from "./prepared";
import type { Database } from "./schema";
import { parseServerList, serverPools } from "./server-choice";

/**
 * PostgreSQL's `COPY … FROM STDIN` on a connection of its own, with `data` (text-format lines) as its
 * input, streamed: a failure of `data` aborts the COPY, which then writes nothing.
 */
export type CopyFrom = (statement: string, data: AsyncIterable<string>) => Promise<void>;

/**
 * The rows of `query` (a SELECT with no parameters) in `COPY`'s binary format, as the database
 * writes them: streamed from PostgreSQL on a connection of its own, in one piece from PGlite (which
 * writes COPY's output to a blob). Read it to its end: a consumer that stops early costs PostgreSQL
 * its connection. Not to be called inside a transaction on PGlite, whose one connection it waits for.
 */
export type CopyTo = (query: string) => AsyncIterable<Uint8Array>;

export interface DatabaseHandle {
  db: Kysely<Database>;
  kind: "postgres" | "pglite";
  /** COPY from a stream (see `CopyFrom`); absent on PGlite. */
  copyFrom?: CopyFrom;
  copyTo: CopyTo;
  /** Resolves when the database answers a trivial query: readiness probes use it. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** A PostgreSQL URL; without it, the embedded PGlite database in `dataDir` is used. */
  url?: string | undefined;
  dataDir?: string | undefined;
  /**
   * PGlite only: a data directory as PGlite's `dumpDataDir` wrote it, to start from instead of an
   * empty one (which PGlite would first initialise, a second or two).
   */
  loadDataDir?: Blob | undefined;
  poolSize?: number | undefined;
  /**
   * Whether statements marked `prepared` are sent as named prepared statements (default true); false
   * behind a pooler in transaction mode that does not keep them (`DB_PREPARED_STATEMENTS=off`).
   */
  preparedStatements?: boolean | undefined;
  onError?: (error: Error) => void;
}

/**
 * The extensions every PGlite database is opened with (they ship inside the PGlite package): `pg_trgm`,
 * for the search index (docs/decisions/0046-row-search.md). A data directory that has installed one
 * must always be opened with it.
 */
export const pgliteExtensions = { pg_trgm };

/**
 * Opens PostgreSQL through `pg` when a URL is given (one server, or several as libpq takes them, with
 * `target_session_attrs`: see `serverPools`), PGlite on disk (or in memory) otherwise.
 */
export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  if (options.url) {
    const pool = serverPools(
      parseServerList(options.url),
      { max: options.poolSize ?? 10, connectionTimeoutMillis: 5_000, idleTimeoutMillis: 30_000 },
      (error) => options.onError?.(error),
    );
    const db = new Kysely<Database>({
      dialect: new PostgresDialect({
        pool: commitAwarePool(preparingPool(pool, options.preparedStatements ?? true)),
      }),
    });
    const copyFrom: CopyFrom = async (statement, data) => {
      const client = await pool.connect();
      try {
        await pipeline(Readable.from(data), client.query(copyFromStream(statement)));
        client.release();
      } catch (error) {
        // The connection is let go rather than reused: a COPY cut short may leave it mid-protocol.
        client.release(true);
        throw error;
      }
    };
    const copyTo: CopyTo = async function* (query) {
      const client = await pool.connect();
      let whole = false;
      try {
        yield* client.query(copyToStream(`COPY (${query}) TO STDOUT (FORMAT binary)`));
        whole = true;
      } finally {
        // As above: a COPY left unread or failed mid-way may leave the connection mid-protocol.
        client.release(whole ? undefined : true);
      }
    };
    return { db, kind: "postgres", copyFrom, copyTo, ping: () => ping(db), close: () => db.destroy() };
  }
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
  const pglite = await PGlite.create({
    extensions: pgliteExtensions,
    ...(options.dataDir ? { dataDir: options.dataDir } : {}),
    ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
  });
  const pool = pglitePool(pglite);
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  const copyTo: CopyTo = async function* (query) {
    const connection = await pool.connect(); // its turn on the one connection
    try {
      const { blob } = await pglite.query(`COPY (${query}) TO '/dev/blob' (FORMAT binary)`);
      if (blob) yield new Uint8Array(await blob.arrayBuffer());
    } finally {
      connection.release();
    }
  };
  return { db, kind: "pglite", copyTo, ping: () => ping(db), close: () => db.destroy() };
}

async function ping(db: Kysely<Database>): Promise<void> {
  await sql`SELECT 1`.execute(db);
}
