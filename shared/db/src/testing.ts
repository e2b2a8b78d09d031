import { randomBytes } from "node:crypto";
import pg from "pg";

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
