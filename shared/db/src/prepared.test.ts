import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DatabaseHandle, openDatabase } from "./connect";
import { prepared } from "./prepared";
import { createScratchDatabase } from "./testing";

const databaseUrl = process.env.DATABASE_URL;

describe.runIf(databaseUrl)("statements marked prepared (PostgreSQL)", () => {
  let database: DatabaseHandle;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    const scratch = await createScratchDatabase(databaseUrl as string, "prepared");
    drop = scratch.drop;
    database = await openDatabase({ url: scratch.url, poolSize: 1 });
  });
  afterAll(async () => {
    await database?.close();
    await drop?.();
  });

  /** The statements prepared on the one connection of the pool. */
  const preparedOnConnection = async () =>
    (
      await sql<{ name: string; statement: string }>`
        SELECT name, statement FROM pg_prepared_statements ORDER BY name`.execute(database.db)
    ).rows;

  it("prepares a marked statement once per connection and reuses it, and leaves others alone", async () => {
    for (const n of [1, 2, 3]) {
      const { rows } = await sql<{ n: number }>`${prepared}SELECT ${n}::int AS n`.execute(database.db);
      expect(rows).toEqual([{ n }]);
    }
    await sql`SELECT 42 AS unmarked`.execute(database.db);
    const statements = await preparedOnConnection();
    expect(statements).toEqual([
      {
        name: expect.stringMatching(/^svc_[0-9a-f]{16}$/),
        statement: expect.stringContaining("SELECT $1::int AS n"),
      },
    ]);
  });

  it("gives a different statement its own name", async () => {
    await sql`${prepared}SELECT ${"x"}::text AS t`.execute(database.db);
    const statements = await preparedOnConnection();
    expect(statements).toHaveLength(2);
    expect(new Set(statements.map((s) => s.name)).size).toBe(2);
  });
});
