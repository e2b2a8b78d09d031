import { type Kysely, sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DatabaseHandle, openDatabase } from "../connect";
import { migrateToLatest } from "../migrate";
import { down, up } from "./0008-dataset-names";

describe("migration 0008: dataset names unique per project", () => {
  let database: DatabaseHandle;
  const db = () => database.db;
  /** Migrations are written against no schema at all. */
  const untyped = () => database.db as unknown as Kysely<unknown>;

  beforeAll(async () => {
    database = await openDatabase({});
    await migrateToLatest(db());
    await db().insertInto("organizations").values({ id: "o", name: "O", slug: "o" }).execute();
    for (const id of ["p", "q"]) {
      await db().insertInto("projects").values({ id, organization_id: "o", slug: id, name: id }).execute();
    }
  });
  afterAll(async () => {
    await database?.close();
  });

  const dataset = (id: string, projectId: string, slug: string, name: string, at: string) => ({
    id,
    organization_id: "o",
    project_id: projectId,
    slug,
    name,
    created_at: new Date(at),
  });

  it("renames the later duplicates a race left behind, then refuses new ones", async () => {
    await down(untyped());
    await db()
      .insertInto("datasets")
      .values([
        dataset("d1", "p", "golden", "Golden", "2024-01-01T00:00:00Z"),
        dataset("d2", "p", "golden-2", "GOLDEN", "2024-01-02T00:00:00Z"),
        dataset("d3", "q", "golden", "Golden", "2024-01-03T00:00:00Z"),
        dataset("d4", "p", "other", "Other", "2024-01-04T00:00:00Z"),
      ])
      .execute();
    await up(untyped());
    const names = await db().selectFrom("datasets").select(["id", "name"]).orderBy("id").execute();
    expect(names).toEqual([
      { id: "d1", name: "Golden" },
      { id: "d2", name: "GOLDEN (golden-2)" },
      { id: "d3", name: "Golden" },
      { id: "d4", name: "Other" },
    ]);
    const clash = await db()
      .insertInto("datasets")
      .values(dataset("d5", "p", "golden-3", "golden", "2024-01-05T00:00:00Z"))
      .execute()
      .then(
        () => undefined,
        (error: unknown) => error as { code?: string; constraint?: string },
      );
    expect(clash).toMatchObject({ code: "23505", constraint: "datasets_project_name" });
    expect((await sql<{ n: number }>`SELECT count(*)::int AS n FROM datasets`.execute(db())).rows).toEqual([
      { n: 4 },
    ]);
  });
});
