import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DatabaseHandle, openDatabase } from "./connect";
import { createScratchDatabase } from "./testing";

const databaseUrl = process.env.DATABASE_URL;

describe.runIf(databaseUrl)("COPY FROM STDIN (PostgreSQL)", () => {
  let database: DatabaseHandle;
  let drop: () => Promise<void>;
  const db = () => database.db;
  const copy = (data: AsyncIterable<string>) => {
    if (!database.copyFrom) throw new Error("PostgreSQL has COPY");
    return database.copyFrom("COPY copied (n, body) FROM STDIN", data);
  };
  const rows = async () =>
    (await sql<{ n: number; body: unknown }>`SELECT n, body FROM copied ORDER BY n`.execute(db())).rows;

  beforeAll(async () => {
    const scratch = await createScratchDatabase(databaseUrl ?? "", "copy");
    drop = scratch.drop;
    database = await openDatabase({ url: scratch.url, poolSize: 2 });
    await sql`CREATE TABLE copied (n int PRIMARY KEY, body jsonb NOT NULL)`.execute(db());
  });
  afterAll(async () => {
    await database?.close();
    await drop?.();
  });

  it("writes the rows its data gives, streamed in pieces", async () => {
    async function* data() {
      yield '1\t{"text": "tab\\\\there, \\\\\\\\ a backslash"}\n2\t';
      yield '{"emoji": "😀"}\n';
    }
    await copy(data());
    expect(await rows()).toEqual([
      { n: 1, body: { text: "tab\there, \\ a backslash" } },
      { n: 2, body: { emoji: "😀" } },
    ]);
  });

  it("writes nothing when its data fails part-way, and the pool goes on working", async () => {
    await sql`TRUNCATE copied`.execute(db());
    async function* data() {
      yield '10\t{"a": 1}\n11\t{"a": 2}\n';
      throw new Error("line 3 is bad");
    }
    await expect(copy(data())).rejects.toThrow("line 3 is bad");
    expect(await rows()).toEqual([]);
    // And when the database refuses a row: the whole COPY goes.
    async function* duplicate() {
      yield '20\t{"a": 1}\n20\t{"a": 2}\n';
    }
    await expect(copy(duplicate())).rejects.toThrow(/duplicate key/);
    expect(await rows()).toEqual([]);
    for (let i = 0; i < 4; i++) expect((await sql`SELECT 1 AS one`.execute(db())).rows).toEqual([{ one: 1 }]);
  });
});

describe("COPY on the embedded database", () => {
  it("is not there: callers stage rows another way", async () => {
    const database = await openDatabase({});
    try {
      expect(database.copyFrom).toBeUndefined();
    } finally {
      await database.close();
    }
  });
});
