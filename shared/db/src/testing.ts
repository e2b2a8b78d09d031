import { randomBytes } from "node:crypto";
import pg from "pg";
import { type DatabaseHandle, openDatabase } from "./connect";

/**
 * Creates a database of its own on the server of `DATABASE_URL`, so that test runs never collide.
 * Returns its URL and a function that drops it.
 */
export async function createScratchDatabase(
  baseUrl: string,
  label = "t",
): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `svc_${label}_${randomBytes(5).toString("hex")}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: baseUrl });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}

/** A database a suite has opened, and how to drop it once closed (nothing to drop for PGlite). */
export interface SuiteDatabase {
  database: DatabaseHandle;
  drop(): Promise<void>;
}

/**
 * The backends a suite of this package runs on, each with how to open a database of its own: PGlite
 * in memory, and a scratch database on the server of `DATABASE_URL` when one is given.
 */
export function databaseBackends(label: string, poolSize: number): [string, () => Promise<SuiteDatabase>][] {
  const backends: [string, () => Promise<SuiteDatabase>][] = [
    ["PGlite", async () => ({ database: await openDatabase({}), drop: async () => {} })],
  ];
  const databaseUrl = process.env.DATABASE_URL;
  if (databaseUrl) {
    backends.push([
      "PostgreSQL",
      async () => {
        const scratch = await createScratchDatabase(databaseUrl, label);
        return { database: await openDatabase({ url: scratch.url, poolSize }), drop: scratch.drop };
      },
    ]);
  }
  return backends;
}
