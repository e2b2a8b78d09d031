import { parseOperationInput } from "@svc/bus";
import { operations, type VersionResult } from "@svc/contracts";
import { availableBackends } from "@svc/testing";
import { sql } from "kysely";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { defaultGroupCommitOptions } from "../group-commit/group-commit";
import { auditDataset, createDataset, insertRows, writerSuite } from "../test-support";
import { groupRowEdits, updateDatasetRow } from "./update-dataset-row";

/**
 * A batch that fails as a whole. The failures are real database errors, raised by a trigger on
 * row_revisions that the test installs: nothing in the code under test knows about them.
 */
describe.each(availableBackends())("group commit when a batch fails (%s)", (backendName) => {
  const suite = writerSuite(backendName);
  const db = () => suite.backend.database.db;

  beforeAll(async () => {
    await sql`CREATE SEQUENCE trigger_calls`.execute(db());
  });
  afterEach(async () => {
    await sql`DROP TRIGGER IF EXISTS fail_edits ON row_revisions`.execute(db());
    await sql`DROP FUNCTION IF EXISTS fail_edits()`.execute(db());
    await sql`ALTER SEQUENCE trigger_calls RESTART`.execute(db());
  });

  /** Makes every insert into row_revisions run `body` (PL/pgSQL) first. */
  async function failEditsWhen(body: string): Promise<void> {
    await sql
      .raw(`CREATE FUNCTION fail_edits() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN ${body} RETURN NEW; END $$`)
      .execute(db());
    await sql`CREATE TRIGGER fail_edits BEFORE INSERT ON row_revisions FOR EACH ROW EXECUTE FUNCTION fail_edits()`.execute(
      db(),
    );
  }

  async function makeDataset(rowIds: string[]) {
    const dataset = await createDataset(suite.caller);
    await insertRows(
      suite.caller,
      dataset.params,
      rowIds.map((id) => ({ id, input: id })),
    ); // v1
    return dataset;
  }

  /**
   * A writer that runs one transaction at a time: the first edit runs alone, and every edit made
   * while it runs waits for it and then goes in one batch, in the order given.
   */
  function editInBatch(
    edits: {
      datasetSlug: string;
      rowId: string;
      output?: string;
      body?: Record<string, unknown>;
      ifMatch?: string;
      idempotencyKey?: string;
    }[],
  ): Promise<PromiseSettledResult<VersionResult>[]> {
    const rowEdits = groupRowEdits(db(), { ...defaultGroupCommitOptions, maxConcurrent: 1 });
    return Promise.allSettled(
      edits.map(({ datasetSlug, rowId, output, body, ifMatch, idempotencyKey }) =>
        updateDatasetRow(
          rowEdits,
          idempotencyKey ? { ...suite.caller.context, idempotencyKey } : suite.caller.context,
          parseOperationInput(operations.updateDatasetRow, {
            params: { projectSlug: suite.caller.projectSlug, datasetSlug, rowId },
            query: {},
            body: body ?? { output },
            headers: ifMatch === undefined ? {} : { ifMatch },
          }),
        ),
      ),
    );
  }

  const outputs = async (datasetId: string) =>
    Object.fromEntries(
      (
        await db()
          .selectFrom("dataset_rows")
          .select(["row_id", "output", "version"])
          .where("dataset_id", "=", datasetId)
          .execute()
      ).map((r) => [r.row_id, [r.output, r.version]]),
    );
  const idempotencyRecord = (key: string) =>
    db()
      .selectFrom("idempotency_records")
      .select("response")
      .where("organization_id", "=", suite.caller.context.organizationId as string)
      .where("key", "=", key)
      .executeTakeFirst();
  const versionOf = (settled: PromiseSettledResult<VersionResult> | undefined) =>
    settled?.status === "fulfilled" ? settled.value.version : settled?.reason;

  it("fails only the edit that breaks a statement; the others of its batch are applied, in order", async () => {
    const a = await makeDataset(["r1", "r2", "poison"]);
    const b = await makeDataset(["r1"]);
    await failEditsWhen(
      "IF NEW.row_id = 'poison' THEN RAISE EXCEPTION 'row % refused by the test', NEW.row_id; END IF;",
    );
    const settled = await editInBatch([
      { datasetSlug: a.slug, rowId: "r1", output: "alone" },
      // The batch: poison in the middle, another dataset, a second edit of one row, and a key.
      { datasetSlug: a.slug, rowId: "r2", output: "x", idempotencyKey: "batch-k1" },
      { datasetSlug: a.slug, rowId: "poison", output: "p", idempotencyKey: "batch-k2" },
      { datasetSlug: b.slug, rowId: "r1", output: "y" },
      { datasetSlug: a.slug, rowId: "r1", output: "z" },
    ]);
    expect(settled.map(versionOf)).toEqual([2, 3, expect.any(Error), 2, 4]);
    expect((settled[2] as PromiseRejectedResult).reason).toMatchObject({
      message: "row poison refused by the test",
    });
    expect(await outputs(a.id)).toEqual({
      r1: ["z", 4],
      r2: ["x", 3],
      poison: [null, 1],
    });
    expect(await outputs(b.id)).toEqual({ r1: ["y", 2] });
    // The applied edit's key holds its answer; the failed edit's key was given back.
    expect((await idempotencyRecord("batch-k1"))?.response).toMatchObject({ version: 3 });
    expect(await idempotencyRecord("batch-k2")).toBeUndefined();
    await auditDataset(suite.backend, a.id);
    await auditDataset(suite.backend, b.id);
  });

  it("judges an If-Match after an earlier edit of its row against that edit, as one at a time would", async () => {
    const a = await makeDataset(["r1", "r2"]);
    const settled = await editInBatch([
      { datasetSlug: a.slug, rowId: "r2", output: "alone" }, // v2
      { datasetSlug: a.slug, rowId: "r1", output: "a" }, // v3
      // Sees v3, the version the edit before it makes, though no client has been told it yet.
      { datasetSlug: a.slug, rowId: "r1", output: "b", ifMatch: "3" },
      { datasetSlug: a.slug, rowId: "r1", output: "stale", ifMatch: "1" },
      { datasetSlug: a.slug, rowId: "r2", output: "c" },
    ]);
    expect(settled.map(versionOf)).toEqual([2, 3, 4, expect.any(Error), 5]);
    expect((settled[3] as PromiseRejectedResult).reason).toMatchObject({
      code: "version_mismatch",
      details: { currentVersion: 4, expectedVersion: 1 },
    });
    expect(await outputs(a.id)).toEqual({ r1: ["b", 4], r2: ["c", 5] });
    await auditDataset(suite.backend, a.id);
  });

  it("records each of a row's edits in one batch as the row stood after it, cells and custom cells merged", async () => {
    const dataset = await makeDataset(["r1", "r2"]);
    const params = { datasetSlug: dataset.slug };
    const [k1, k2] = await Promise.all(
      ["k1", "k2"].map(
        async (name) =>
          (await suite.caller.call(operations.createDatasetColumn, { params, body: { name } })).identifier,
      ),
    );
    const settled = await editInBatch([
      { datasetSlug: dataset.slug, rowId: "r2", output: "alone" }, // v2
      { datasetSlug: dataset.slug, rowId: "r1", body: { output: "o1", custom: { [k1 as string]: 1 } } },
      {
        datasetSlug: dataset.slug,
        rowId: "r1",
        body: { expectedOutput: null, custom: { [k2 as string]: 2 } },
      },
      {
        datasetSlug: dataset.slug,
        rowId: "r1",
        body: { output: "no", custom: { nosuchcolumnnosuchcolumn: 1 } },
      },
      { datasetSlug: dataset.slug, rowId: "r1", body: { output: "o3", custom: { [k1 as string]: 3 } } },
    ]);
    expect(settled.map(versionOf)).toEqual([2, 3, 4, expect.any(Error), 5]);
    expect((settled[3] as PromiseRejectedResult).reason).toMatchObject({
      code: "unknown_column",
      details: { column: "nosuchcolumnnosuchcolumn" },
    });
    const revisions = await sql<{ version_from: number; version_to: number | null; row: unknown }>`
      SELECT version_from, version_to,
             jsonb_build_object('input', input, 'output', output, 'expectedOutput', expected_output, 'custom', custom) AS row
      FROM row_revisions WHERE dataset_id = ${dataset.id} AND row_id = 'r1' ORDER BY version_from`.execute(
      db(),
    );
    expect(revisions.rows).toEqual([
      {
        version_from: 1,
        version_to: 3,
        row: { input: "r1", output: null, expectedOutput: null, custom: {} },
      },
      {
        version_from: 3,
        version_to: 4,
        row: { input: "r1", output: "o1", expectedOutput: null, custom: { [k1 as string]: 1 } },
      },
      {
        version_from: 4,
        version_to: 5,
        row: {
          input: "r1",
          output: "o1",
          expectedOutput: null,
          custom: { [k1 as string]: 1, [k2 as string]: 2 },
        },
      },
      {
        version_from: 5,
        version_to: null,
        row: {
          input: "r1",
          output: "o3",
          expectedOutput: null,
          custom: { [k1 as string]: 3, [k2 as string]: 2 },
        },
      },
    ]);
    const current = await db()
      .selectFrom("dataset_rows")
      .select(["output", "expected_output", "custom", "version"])
      .where("dataset_id", "=", dataset.id)
      .where("row_id", "=", "r1")
      .executeTakeFirstOrThrow();
    expect(current).toEqual({
      output: "o3",
      expected_output: null,
      custom: { [k1 as string]: 3, [k2 as string]: 2 },
      version: 5,
    });
    await auditDataset(suite.backend, dataset.id);
  });

  it("applies every edit of a batch that a deadlock broke, one by one", async () => {
    const a = await makeDataset(["r1", "r2", "r3"]);
    // The first insert of a revision after this point fails, once: sequences ignore rollbacks.
    await failEditsWhen(
      "IF nextval('trigger_calls') = 2 THEN RAISE EXCEPTION 'deadlock detected (by the test)' USING ERRCODE = '40P01'; END IF;",
    );
    const settled = await editInBatch([
      { datasetSlug: a.slug, rowId: "r1", output: "alone" },
      { datasetSlug: a.slug, rowId: "r1", output: "b1" },
      { datasetSlug: a.slug, rowId: "r2", output: "b2" },
      { datasetSlug: a.slug, rowId: "r3", output: "b3" },
    ]);
    expect(settled.map(versionOf)).toEqual([2, 3, 4, 5]);
    expect(await outputs(a.id)).toEqual({ r1: ["b1", 3], r2: ["b2", 4], r3: ["b3", 5] });
    // Call 1: the lone edit; 2: the batch, which failed; 3-5: its edits one by one.
    expect(
      (await sql<{ n: number }>`SELECT last_value::int AS n FROM trigger_calls`.execute(db())).rows,
    ).toEqual([{ n: 5 }]);
    await auditDataset(suite.backend, a.id);
  });

  it("fails a whole batch at once when the database cannot be reached, without trying each edit", async () => {
    const a = await makeDataset(["r1", "r2", "r3"]);
    await failEditsWhen(
      "IF nextval('trigger_calls') >= 2 THEN RAISE EXCEPTION 'terminating connection (by the test)' USING ERRCODE = '57P01'; END IF;",
    );
    const settled = await editInBatch([
      { datasetSlug: a.slug, rowId: "r1", output: "alone" },
      { datasetSlug: a.slug, rowId: "r2", output: "b2" },
      { datasetSlug: a.slug, rowId: "r3", output: "b3" },
    ]);
    expect(settled.map((s) => s.status)).toEqual(["fulfilled", "rejected", "rejected"]);
    expect(
      (await sql<{ n: number }>`SELECT last_value::int AS n FROM trigger_calls`.execute(db())).rows,
    ).toEqual([{ n: 2 }]);
    expect(await outputs(a.id)).toEqual({ r1: ["alone", 2], r2: [null, 1], r3: [null, 1] });
    await auditDataset(suite.backend, a.id);
  });
});
