import { migrateToLatest, openDatabase } from "@svc/db";
import { createScratchDatabase } from "@svc/db/testing";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AcknowledgedChange, auditVersions } from "./audit";
import { realInfra } from "./infra";

const infra = realInfra();

/** The audit itself: it passes on a sound history and names each way one can be broken. */
describe.runIf(infra)("the audit after a fault", () => {
  let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
  let db: pg.Client;
  const sql = (text: string, values: unknown[] = []) => db.query(text, values);
  let datasets = 0;

  beforeAll(async () => {
    scratch = await createScratchDatabase(infra?.databaseUrl ?? "", "audit");
    const handle = await openDatabase({ url: scratch.url, poolSize: 1 });
    try {
      await migrateToLatest(handle.db);
    } finally {
      await handle.close();
    }
    db = new pg.Client({ connectionString: scratch.url });
    await db.connect();
  });
  afterAll(async () => {
    await db?.end();
    await scratch?.drop();
  });

  /** Dataset `id` at version 2: row r1 got "one" in version 1 and "two" in version 2. */
  async function datasetAtVersionTwo(id: string): Promise<AcknowledgedChange[]> {
    await sql("INSERT INTO organizations (id, name, slug) VALUES ($1, $1, $1)", [id]);
    await sql("INSERT INTO projects (id, organization_id, slug, name) VALUES ($1, $1, $1, $1)", [id]);
    await sql(
      "INSERT INTO datasets (id, organization_id, project_id, slug, name, current_version) VALUES ($1, $1, $1, $1, $1, 2)",
      [id],
    );
    for (const version of [1, 2]) {
      await sql(
        "INSERT INTO dataset_versions (id, dataset_id, version, operation, actor_kind, actor_id) VALUES ($1, $2, $3, 'update', 'apiKey', 'k')",
        [`${id}-v${version}`, id, version],
      );
    }
    await sql(
      `INSERT INTO row_revisions (dataset_id, row_id, version_from, version_to, expected_output, created_at)
       VALUES ($1, 'r1', 1, 2, '"one"', now()), ($1, 'r1', 2, NULL, '"two"', now())`,
      [id],
    );
    await sql(
      `INSERT INTO dataset_rows (dataset_id, row_id, expected_output, created_at, version)
       VALUES ($1, 'r1', '"two"', now(), 2)`,
      [id],
    );
    return [
      { datasetId: id, version: 1, versionId: `${id}-v1`, rowId: "r1", expectedOutput: "one" },
      { datasetId: id, version: 2, versionId: `${id}-v2`, rowId: "r1", expectedOutput: "two" },
      { datasetId: id, version: 2 },
    ];
  }

  it("passes on every dataset at 1..N with each acknowledged change in place", async () => {
    const acknowledged = await datasetAtVersionTwo("sound");
    await expect(auditVersions(scratch.url, acknowledged)).resolves.toBeUndefined();
  });

  it.each<[string, (id: string) => AcknowledgedChange]>([
    ["a version that is not there", (id) => ({ datasetId: id, version: 3 })],
    ["a version under another id", (id) => ({ datasetId: id, version: 2, versionId: `${id}-v1` })],
    ["a row the version did not change", (id) => ({ datasetId: id, version: 2, rowId: "r2" })],
    [
      "a row that holds something else",
      (id) => ({ datasetId: id, version: 1, rowId: "r1", expectedOutput: "two" }),
    ],
  ])("names an acknowledged change missing: %s", async (_case, change) => {
    const id = `missing${++datasets}`;
    const acknowledged = await datasetAtVersionTwo(id);
    await expect(auditVersions(scratch.url, [...acknowledged, change(id)])).rejects.toThrow(
      /^acknowledged changes missing: /,
    );
  });

  it("names a gap in a dataset's versions, and a row out of step with its revision", async () => {
    await datasetAtVersionTwo("gap");
    await sql("DELETE FROM dataset_versions WHERE id = 'gap-v1'");
    await expect(auditVersions(scratch.url)).rejects.toThrow(/^version gaps or duplicates: \[?\{"id":"gap"/);
    await sql(
      "INSERT INTO dataset_versions (id, dataset_id, version, operation, actor_kind, actor_id) VALUES ('gap-v1', 'gap', 1, 'update', 'apiKey', 'k')",
    );
    await expect(auditVersions(scratch.url)).resolves.toBeUndefined();

    await sql(`UPDATE dataset_rows SET expected_output = '"three"' WHERE dataset_id = 'gap'`);
    await expect(auditVersions(scratch.url)).rejects.toThrow(/^rows out of step with their revisions: /);
    await sql(`UPDATE dataset_rows SET expected_output = '"two"' WHERE dataset_id = 'gap'`);
  });
});
