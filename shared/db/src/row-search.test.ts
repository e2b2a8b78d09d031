import { type Kysely, sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "./connect";
import { migrateToLatest } from "./migrate";
import { revisionsAt } from "./revisions";
import { type CellSearch, matchesSearch } from "./row-filters";
import type { Database } from "./schema";
import { buildSearchIndex } from "./search-index";
import { databaseBackends } from "./testing";

/*
 * Row search through the trigram index (docs/decisions/0046-row-search.md) must find exactly the rows
 * the scan finds, at every version: each search below runs twice, once with the planner held to
 * bitmap scans (the index) and once with them forbidden (the ordered scan with a filter), and both
 * must give the same rows in the same order.
 */

const backends = databaseBackends("search", 1);

/** Revisions of one dataset: row, valid versions [from, to), cells. Version 3 is the current one. */
const revisions: {
  row: string;
  from: number;
  to: number | null;
  deleted?: boolean;
  input?: unknown;
  output?: unknown;
  custom?: Record<string, unknown>;
}[] = [
  { row: "a", from: 1, to: 2, input: { q: "The Quick Brown Fox" } },
  { row: "a", from: 2, to: null, input: { q: "The Slow Green Turtle" } },
  { row: "b", from: 1, to: 3, input: "café crème", output: "Déjà vu" },
  { row: "b", from: 3, to: null, deleted: true },
  { row: "c", from: 1, to: null, input: "100% sure", custom: { notes: "quick notes", hidden: "zanzibar" } },
  {
    row: "d",
    from: 2,
    to: null,
    input: "snake_case and back\\slash",
    custom: { notes: { deep: ["QUICK"] } },
  },
  { row: "e", from: 1, to: null, input: 'he said "hi"', output: { quick: 1 } },
  { row: "f", from: 1, to: null, input: "100 percent snakeXcase", custom: { quicknotes: "no" } },
];

const everything: Omit<CellSearch, "text"> = {
  fields: ["input", "output", "expectedOutput", "metadata"],
  customIdentifiers: ["notes"],
};

describe.each(backends)("row search through the trigram index (%s)", (_name, open) => {
  let database: DatabaseHandle;
  let drop: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    ({ database, drop } = await open());
    await migrateToLatest(database.db);
    await sql`INSERT INTO organizations (id, name, slug) VALUES ('o', 'o', 'o')`.execute(database.db);
    await sql`INSERT INTO projects (id, organization_id, slug, name) VALUES ('p', 'o', 'p', 'p')`.execute(
      database.db,
    );
    await sql`
      INSERT INTO datasets (id, organization_id, project_id, slug, name, current_version)
      VALUES ('d', 'o', 'p', 'd', 'd', 3)`.execute(database.db);
    await database.db
      .insertInto("row_revisions")
      .values(
        revisions.map((r, i) => ({
          dataset_id: "d",
          row_id: r.row,
          version_from: r.from,
          version_to: r.to,
          deleted: r.deleted ?? false,
          input: JSON.stringify(r.input ?? null),
          output: JSON.stringify(r.output ?? null),
          expected_output: "null",
          metadata: "{}",
          custom: JSON.stringify(r.custom ?? {}),
          created_at: new Date(Date.UTC(2024, 0, 1, 0, 0, "abcdef".indexOf(r.row), i)),
        })),
      )
      .execute();
    await sql`ANALYZE row_revisions`.execute(database.db);
  });
  afterAll(async () => {
    await database?.close();
    await drop?.();
  });

  /**
   * The rows a search finds at `version`, in creation order, and the plan that found them: through the
   * index with every other index of the revisions dropped (inside a transaction that is rolled back, so
   * they come back) and sequential scans held off, or through the scan with bitmap scans forbidden.
   */
  async function search(db: Kysely<Database>, text: string, version: number, through: "index" | "scan") {
    const rollback = new Error("rolled back");
    let found: { rows: string[]; plan: string } | undefined;
    await db
      .transaction()
      .execute(async (trx) => {
        await sql`SET LOCAL enable_seqscan = off`.execute(trx);
        if (through === "scan") await sql`SET LOCAL enable_bitmapscan = off`.execute(trx);
        else await dropIndexesButSearch(trx);
        const query = revisionsAt(trx, "d", version)
          .where(matchesSearch({ text, ...everything }))
          .select("r.row_id")
          .orderBy("r.created_at")
          .orderBy("r.row_id");
        const { rows: plan } = await sql<{ "QUERY PLAN": string }>`EXPLAIN ${query}`.execute(trx);
        const rows = await query.execute();
        found = {
          rows: rows.map((row) => row.row_id),
          plan: plan.map((line) => line["QUERY PLAN"]).join("\n"),
        };
        throw rollback;
      })
      .catch((error: unknown) => {
        if (error !== rollback) throw error;
      });
    if (!found) throw new Error("the search did not run");
    return found;
  }

  async function dropIndexesButSearch(trx: Kysely<Database>) {
    const { rows } = await sql<{ index: string; owner: string | null }>`
      SELECT c.relname AS index, con.conname AS owner FROM pg_index i
      JOIN pg_class c ON c.oid = i.indexrelid
      LEFT JOIN pg_constraint con ON con.conindid = i.indexrelid AND con.conrelid = i.indrelid
      WHERE i.indrelid = 'row_revisions'::regclass AND c.relname <> 'row_revisions_search'`.execute(trx);
    for (const { index, owner } of rows) {
      await (owner === null
        ? sql`DROP INDEX ${sql.id(index)}`
        : sql`ALTER TABLE row_revisions DROP CONSTRAINT ${sql.id(owner)}`
      ).execute(trx);
    }
  }

  it("builds the index with the migrations, valid", async () => {
    const { rows } = await sql<{ valid: boolean }>`
      SELECT i.indisvalid AS valid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
      WHERE c.relname = 'row_revisions_search'`.execute(database.db);
    expect(rows).toEqual([{ valid: true }]);
  });

  it.each([
    // [search, version, rows found]
    ["quick", 3, ["c", "d", "e"]],
    ["quick", 1, ["a", "c", "e"]],
    ["QUICK BROWN", 1, ["a"]],
    ["quick brown", 2, []],
    ["turtle", 1, []],
    ["turtle", 2, ["a"]],
    ["café", 2, ["b"]],
    ["CAFÉ crème", 1, ["b"]],
    ["déjà", 3, []],
    ["cafe", 2, []],
    ["100%", 3, ["c"]],
    ["%", 3, ["c"]],
    ["e_c", 3, ["d"]],
    ["_", 3, ["d"]],
    ["k\\s", 3, ["d"]],
    ["\\", 3, ["d"]],
    ['"hi"', 3, ["e"]],
    ["zanzibar", 3, []],
    ["notes", 3, ["c"]],
    ["quicknotes", 3, []],
  ] as const)(
    "finds %j at version %i through the index as through the scan",
    async (text, version, found) => {
      const scanned = await search(database.db, text, version, "scan");
      const indexed = await search(database.db, text, version, "index");
      expect(scanned.rows).toEqual(found);
      expect(indexed.rows).toEqual(scanned.rows);
      expect(scanned.plan).not.toContain("row_revisions_search");
      // A term of three characters or more has trigrams, and the index then answers it.
      if (text.replace(/[^\p{L}\p{N}]/gu, "").length >= 3)
        expect(indexed.plan).toContain("row_revisions_search");
    },
  );

  it("builds an index left unfinished again, and leaves a finished one alone", async () => {
    expect(await buildSearchIndex(database.db)).toBe(false);
    // What a build cut short leaves: an index PostgreSQL does not use.
    await sql`
      UPDATE pg_index SET indisvalid = false
      WHERE indexrelid = 'row_revisions_search'::regclass`.execute(database.db);
    expect(await buildSearchIndex(database.db)).toBe(true);
    const { rows } = await sql<{ valid: boolean }>`
      SELECT i.indisvalid AS valid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
      WHERE c.relname = 'row_revisions_search'`.execute(database.db);
    expect(rows).toEqual([{ valid: true }]);
    expect((await search(database.db, "turtle", 3, "index")).plan).toContain("row_revisions_search");
  });
});
