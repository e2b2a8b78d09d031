import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DatabaseHandle, openDatabase } from "../connect";
import { migrateToLatest } from "../migrate";

describe("migration 0013: rows go with their dataset without a key checked per row", () => {
  let database: DatabaseHandle;
  const db = () => database.db;

  beforeAll(async () => {
    database = await openDatabase({});
    await migrateToLatest(db());
    await db().insertInto("organizations").values({ id: "o", name: "O", slug: "o" }).execute();
    await db()
      .insertInto("projects")
      .values({ id: "p", organization_id: "o", slug: "p", name: "P" })
      .execute();
  });
  afterAll(async () => {
    await database?.close();
  });

  const seed = async (datasetId: string) => {
    await db()
      .insertInto("datasets")
      .values({ id: datasetId, organization_id: "o", project_id: "p", slug: datasetId, name: datasetId })
      .execute();
    await sql`
      INSERT INTO dataset_rows (dataset_id, row_id, input, custom, created_at, version)
      SELECT ${datasetId}, 'r' || i, to_jsonb(i), '{}', now(), 1 FROM generate_series(1, 3) AS i`.execute(
      db(),
    );
    await sql`
      INSERT INTO row_revisions (dataset_id, row_id, version_from, input, custom, created_at)
      SELECT ${datasetId}, 'r' || i, 1, to_jsonb(i), '{}', now() FROM generate_series(1, 3) AS i`.execute(
      db(),
    );
  };
  const count = async (table: "dataset_rows" | "row_revisions", datasetId: string) =>
    Number(
      (
        await db()
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as("n"))
          .where("dataset_id", "=", datasetId)
          .executeTakeFirstOrThrow()
      ).n,
    );

  it("deletes a dataset's rows and history with it, and only its own", async () => {
    await seed("gone");
    await seed("kept");
    await db().deleteFrom("datasets").where("id", "=", "gone").execute();
    expect(await count("dataset_rows", "gone")).toBe(0);
    expect(await count("row_revisions", "gone")).toBe(0);
    expect(await count("dataset_rows", "kept")).toBe(3);
    expect(await count("row_revisions", "kept")).toBe(3);
  });

  it("deletes them when the project or the organisation goes", async () => {
    await db().deleteFrom("projects").where("id", "=", "p").execute();
    expect(await count("dataset_rows", "kept")).toBe(0);
    expect(await count("row_revisions", "kept")).toBe(0);
  });

  it("leaves no per-row key on rows or revisions", async () => {
    const { rows } = await sql<{ name: string }>`
      SELECT conname AS name FROM pg_constraint
      WHERE contype = 'f' AND conrelid IN ('dataset_rows'::regclass, 'row_revisions'::regclass)`.execute(
      db(),
    );
    expect(rows).toEqual([]);
  });
});
