import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseBackends, type SuiteDatabase } from "./testing";
import { unnestRows } from "./unnest";

const backends = databaseBackends("unnest", 2);

describe.each(backends)("unnestRows (%s)", (_name, open) => {
  let handle: SuiteDatabase;
  const db = () => handle.database.db;
  beforeAll(async () => {
    handle = await open();
  });
  afterAll(async () => {
    await handle?.database.close();
    await handle?.drop();
  });

  it("passes every kind of value through unchanged, JSON null apart from SQL NULL", async () => {
    const tricky = 'quote " backslash \\ comma , braces {} NULL é 😀';
    const rows = [
      {
        name: tricky,
        n: 1,
        big: "9007199254740993",
        flag: true,
        cell: { a: [1, "x", null], [tricky]: tricky },
      },
      { name: "", n: -2, big: "0", flag: false, cell: null },
      { name: null, n: null, big: null, flag: null, cell: undefined },
      { name: "NULL", n: 0, big: "1", flag: true, cell: tricky },
    ];
    const result = await sql<{
      name: string | null;
      n: number | null;
      big: string | null;
      flag: boolean | null;
      cell: unknown;
      is_sql_null: boolean;
    }>`
      SELECT name, n, big::text AS big, flag, cell, cell IS NULL AS is_sql_null
      FROM ${unnestRows("t", { name: "text", n: "int", big: "bigint", flag: "boolean", cell: "jsonb" }, rows)}`.execute(
      db(),
    );
    expect(result.rows).toEqual([
      { ...rows[0], is_sql_null: false },
      { name: "", n: -2, big: "0", flag: false, cell: null, is_sql_null: false },
      { name: null, n: null, big: null, flag: null, cell: null, is_sql_null: true },
      { name: "NULL", n: 0, big: "1", flag: true, cell: tricky, is_sql_null: false },
    ]);
  });

  it("lets the planner look a few keys up by index in a large table", async () => {
    await sql`CREATE TABLE keyed (a text, b text, payload text, PRIMARY KEY (a, b))`.execute(db());
    await sql`INSERT INTO keyed SELECT 'a' || (n / 100), 'b' || (n % 100), 'x' FROM generate_series(1, 20000) n`.execute(
      db(),
    );
    await sql`ANALYZE keyed`.execute(db());
    const keys = [
      { a: "a1", b: "b1" },
      { a: "a7", b: "b42" },
      { a: "a150", b: "b99" },
    ];
    const plan = await sql<{ "QUERY PLAN": string }>`
      EXPLAIN SELECT k.payload FROM keyed k JOIN ${unnestRows("u", { a: "text", b: "text" }, keys)}
      ON k.a = u.a AND k.b = u.b`.execute(db());
    const text = plan.rows.map((row) => row["QUERY PLAN"]).join("\n");
    expect(text).toMatch(/Index (Only )?Scan/);
    expect(text).not.toMatch(/Seq Scan on keyed/);
    const found = await sql<{ payload: string }>`
      SELECT k.payload FROM keyed k JOIN ${unnestRows("u", { a: "text", b: "text" }, keys)}
      ON k.a = u.a AND k.b = u.b`.execute(db());
    expect(found.rows).toHaveLength(3);
  });
});
