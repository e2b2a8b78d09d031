import { builtinFields, findUnstorableInput, MAX_INPUT_DEPTH } from "@svc/contracts";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "./connect";
import { migrateToLatest } from "./migrate";
import { cellColumns, storedColumnOf } from "./revisions";
import { matchesPresence } from "./row-filters";
import { databaseBackends } from "./testing";

/*
 * The rules of what a cell is and what it may hold are defined once in TypeScript: the built-in cells
 * in `builtinFields` (@svc/contracts), their columns in `storedColumnOf` (revisions.ts, whose pieces
 * every repository builds its cell lists from), what no input may hold in `findUnstorableInput`
 * (@svc/contracts). The migrations and PostgreSQL itself must agree with them; these tests compare
 * each with the definition, so that a change on one side alone fails here.
 */

const backends = databaseBackends("cells", 1);

describe.each(backends)("cell rules against the database (%s)", (_name, open) => {
  let database: DatabaseHandle;
  let drop: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    ({ database, drop } = await open());
    await migrateToLatest(database.db);
  });
  afterAll(async () => {
    await database?.close();
    await drop?.();
  });

  it("stores each built-in cell in a jsonb column of its own, beside the custom cells, and nothing else", async () => {
    const { rows } = await sql<{ table_name: string; column_name: string }>`
      SELECT table_name, column_name FROM information_schema.columns
      WHERE table_schema = current_schema() AND data_type = 'jsonb'
        AND table_name IN ('dataset_rows', 'row_revisions')
      ORDER BY table_name, column_name`.execute(database.db);
    const expected = [...cellColumns].sort();
    expect(Object.keys(storedColumnOf).sort()).toEqual([...builtinFields].sort());
    for (const table of ["dataset_rows", "row_revisions"]) {
      expect(rows.filter((row) => row.table_name === table).map((row) => row.column_name)).toEqual(expected);
    }
  });

  it("finds the rows missing an expected output through the partial index of migration 0011", async () => {
    const missing = matchesPresence({ missing: [{ kind: "builtin", field: "expectedOutput" }], present: [] });
    await sql`SET enable_seqscan = off`.execute(database.db);
    try {
      const { rows } = await sql<{ "QUERY PLAN": string }>`
        EXPLAIN SELECT r.row_id FROM dataset_rows r
        WHERE r.dataset_id = 'd' AND ${missing}
        ORDER BY r.created_at, r.row_id LIMIT 10`.execute(database.db);
      expect(rows.map((row) => row["QUERY PLAN"]).join("\n")).toContain(
        "dataset_rows_missing_expected_output",
      );
    } finally {
      await sql`RESET enable_seqscan`.execute(database.db);
    }
  });

  // Text around the edge of what PostgreSQL stores: the contracts must refuse exactly what it refuses.
  const texts: [string, string][] = [
    ["U+0000 alone", "\u0000"],
    ["U+0000 inside text", "a\u0000b"],
    ["a lone high surrogate", "\ud83d"],
    ["a lone low surrogate", "x\ude00"],
    ["surrogates in the wrong order", "\ude00\ud83d"],
    ["a surrogate pair", "\ud83d\ude00"],
    ["U+0001", "\u0001"],
    ["U+FFFF", "\uffff"],
    ["an escaped-looking backslash", "\\u0000"],
    ["empty text", ""],
  ];

  it.each(texts)("refuses %s in a cell exactly when PostgreSQL cannot store it", async (_label, text) => {
    const stores = async (value: unknown) =>
      sql`SELECT ${JSON.stringify(value)}::jsonb AS cell`.execute(database.db).then(
        () => true,
        () => false,
      );
    for (const value of [text, { [text]: 1 }, [{ key: text }]]) {
      expect(findUnstorableInput(value) === undefined, JSON.stringify(value)).toBe(await stores(value));
    }
  });

  it("stores a cell nested as deep as the contracts allow", async () => {
    let deepest: unknown = "leaf";
    for (let depth = 0; depth < MAX_INPUT_DEPTH; depth++) deepest = depth % 2 ? [deepest] : { k: deepest };
    expect(findUnstorableInput(deepest)).toBeUndefined();
    const { rows } = await sql<{ cell: unknown }>`SELECT ${JSON.stringify(deepest)}::jsonb AS cell`.execute(
      database.db,
    );
    expect(rows[0]?.cell).toEqual(deepest);
    expect(findUnstorableInput([deepest])).toMatchObject({ message: expect.stringContaining("nested") });
  });
});
