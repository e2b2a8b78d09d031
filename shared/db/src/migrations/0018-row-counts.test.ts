import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DatabaseHandle, openDatabase } from "../connect";
import { migrateToLatest } from "../migrate";
import { down, up } from "./0018-row-counts";

describe("migration 0018: each version and each dataset learn their row count from the revisions", () => {
  let database: DatabaseHandle;
  const db = () => database.db;

  beforeAll(async () => {
    database = await openDatabase({});
    await migrateToLatest(db());
    // The state before the migration: the columns it adds are not there yet.
    await down(db() as never);
    await db().insertInto("organizations").values({ id: "o", name: "O", slug: "o" }).execute();
    await db()
      .insertInto("projects")
      .values({ id: "p", organization_id: "o", slug: "p", name: "P" })
      .execute();
  });
  afterAll(async () => {
    await database?.close();
  });

  /** A dataset at `current`, with a version record (its tallies left at 0) for each of 1..current. */
  async function dataset(id: string, current: number) {
    await sql`
      INSERT INTO datasets (id, organization_id, project_id, slug, name, current_version)
      VALUES (${id}, 'o', 'p', ${id}, ${id}, ${current})`.execute(db());
    await sql`
      INSERT INTO dataset_versions (id, dataset_id, version, operation, actor_kind, actor_id)
      SELECT ${id} || '-v' || v, ${id}, v, 'update', 'apiKey', 'k' FROM generate_series(1, ${current}) AS v
    `.execute(db());
  }
  /** A revision of a row, valid for [from, to); a tombstone when `deleted`. */
  const revision = (datasetId: string, rowId: string, from: number, to: number | null, deleted = false) =>
    sql`
      INSERT INTO row_revisions (dataset_id, row_id, version_from, version_to, deleted, input, custom, created_at)
      VALUES (${datasetId}, ${rowId}, ${from}, ${to}, ${deleted}, '1', '{}', now())`.execute(db());

  const counts = async (datasetId: string) =>
    (
      await sql<{ row_count: number }>`
        SELECT row_count FROM dataset_versions WHERE dataset_id = ${datasetId} ORDER BY version`.execute(db())
    ).rows.map((row) => row.row_count);
  const current = async (datasetId: string) =>
    (await sql<{ row_count: number }>`SELECT row_count FROM datasets WHERE id = ${datasetId}`.execute(db()))
      .rows[0]?.row_count;

  it("counts the rows alive at each version through inserts, edits, deletes and a restore, per dataset", async () => {
    // a: v1 inserts r1 r2 r3; v2 edits r1; v3 deletes r2; v4 restores v1 (r2 back, r1 as it was);
    // v5 inserts r4 and deletes r3.
    await dataset("a", 5);
    await revision("a", "r1", 1, 2);
    await revision("a", "r1", 2, 4);
    await revision("a", "r1", 4, null);
    await revision("a", "r2", 1, 3);
    await revision("a", "r2", 3, 4, true);
    await revision("a", "r2", 4, null);
    await revision("a", "r3", 1, 5);
    await revision("a", "r3", 5, null, true);
    await revision("a", "r4", 5, null);
    // b: v1 inserts two rows; v2 deletes both.
    await dataset("b", 2);
    await revision("b", "x", 1, 2);
    await revision("b", "x", 2, null, true);
    await revision("b", "y", 1, 2);
    await revision("b", "y", 2, null, true);
    // c: no version yet.
    await dataset("c", 0);

    await up(db() as never);

    expect(await counts("a")).toEqual([3, 3, 2, 3, 3]);
    expect(await current("a")).toBe(3);
    expect(await counts("b")).toEqual([2, 0]);
    expect(await current("b")).toBe(0);
    expect(await counts("c")).toEqual([]);
    expect(await current("c")).toBe(0);
  });
});
