import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DatabaseHandle, openDatabase } from "./connect";
import { prepared } from "./prepared";
import { createScratchDatabase } from "./testing";
import { unnestRows } from "./unnest";

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

  it("keeps one generic plan for a batch statement whose arrays' size is hidden, and plans it anew if not", async () => {
    await sql`CREATE TABLE items (id int PRIMARY KEY, label text NOT NULL)`.execute(database.db);
    await sql`INSERT INTO items SELECT i, 'item ' || i FROM generate_series(1, 10000) i`.execute(database.db);
    await sql`ANALYZE items`.execute(database.db);
    const plans = async (sizeHidden: boolean) => {
      for (let id = 1; id <= 12; id++) {
        const { rows } = await sql<{ label: string }>`${prepared}
          SELECT i.label FROM ${unnestRows("k", { id: "int" }, [{ id }], { sizeHidden })} JOIN items i ON i.id = k.id`.execute(
          database.db,
        );
        expect(rows).toEqual([{ label: `item ${id}` }]);
      }
      const { rows } = await sql<{ generic: number; custom: number }>`
        SELECT generic_plans::int AS generic, custom_plans::int AS custom FROM pg_prepared_statements
        WHERE statement LIKE '%JOIN items i%' AND statement LIKE ${sizeHidden ? "%(SELECT $1%" : "%unnest($1%"}`.execute(
        database.db,
      );
      return rows[0];
    };
    // A batch of one looks cheaper planned for itself than the generic plan's guess of 10 rows.
    expect(await plans(false)).toEqual({ generic: 0, custom: 12 });
    // PostgreSQL tries five custom plans before it compares them with the generic one.
    expect(await plans(true)).toEqual({ generic: 7, custom: 5 });
  });

  it("prepares nothing when told not to (DB_PREPARED_STATEMENTS=off, for PgBouncer in transaction mode)", async () => {
    const scratch = await createScratchDatabase(databaseUrl as string, "unprepared");
    const unprepared = await openDatabase({ url: scratch.url, poolSize: 1, preparedStatements: false });
    try {
      const { rows } = await sql<{ n: number }>`${prepared}SELECT ${7}::int AS n`.execute(unprepared.db);
      expect(rows).toEqual([{ n: 7 }]);
      const statements = await sql`SELECT name FROM pg_prepared_statements`.execute(unprepared.db);
      expect(statements.rows).toEqual([]);
    } finally {
      await unprepared.close();
      await scratch.drop();
    }
  });
});
