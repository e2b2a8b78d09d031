import { setTimeout as delay } from "node:timers/promises";
import { parseOperationInput } from "@svc/bus";
import { operations } from "@svc/contracts";
import type { Database } from "@svc/db";
import { realInfra } from "@svc/testing";
import { sql, type Transaction } from "kysely";
import { describe, expect, it } from "vitest";
import { defaultGroupCommitOptions } from "../group-commit/group-commit";
import {
  auditDataset,
  createDataset,
  currentVersion,
  failure,
  insertRows,
  makeAgentTraces,
  writerSuite,
} from "../test-support";
import { groupRowEdits, type RowEdits, updateDatasetRow } from "./update-dataset-row";

/**
 * Mutations that wait for a dataset's lock: what commits meanwhile must be seen (a column removed
 * then must be refused), and the order locks are taken in must not let two mutations wait on each
 * other. Only real PostgreSQL runs transactions side by side; PGlite has one connection.
 */
describe.runIf(realInfra())("mutations waiting for a dataset's lock", () => {
  const suite = writerSuite("distributed");

  async function makeDataset() {
    const { params, id, columns } = await createDataset(suite.caller, ["score"]);
    const [column = ""] = columns;
    await insertRows(suite.caller, params, [{ id: "r1", input: "q", custom: { [column]: 1 } }]); // v1
    return { params, id, column };
  }

  /** Sessions of this test's database waiting for a lock. */
  async function lockWaiters(): Promise<number> {
    const result = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM pg_stat_activity
      WHERE datname = current_database() AND wait_event_type = 'Lock'`.execute(suite.backend.database.db);
    return result.rows[0]?.n ?? 0;
  }

  const settle = <T>(promise: Promise<T>): Promise<PromiseSettledResult<T>> =>
    promise.then(
      (value) => ({ status: "fulfilled", value }),
      (reason: unknown) => ({ status: "rejected", reason }),
    );
  const reasonOf = (settled: PromiseSettledResult<unknown>) =>
    failure(settled.status === "rejected" ? Promise.reject(settled.reason) : Promise.resolve(settled.value));

  async function untilLockWaiters(count: number): Promise<void> {
    const deadline = Date.now() + 10_000;
    while ((await lockWaiters()) < count) {
      if (Date.now() > deadline) throw new Error(`fewer than ${count} sessions ever waited for the lock`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  /** Holds the dataset's row lock in another transaction while `during` runs, then commits. */
  async function holdingDatasetLock(
    datasetId: string,
    during: (trx: Transaction<Database>) => Promise<void>,
  ): Promise<void> {
    await suite.backend.database.db.transaction().execute(async (trx) => {
      await sql`SELECT id FROM datasets WHERE id = ${datasetId} FOR UPDATE`.execute(trx);
      await during(trx);
    });
  }

  /**
   * Starts `mutation` while another transaction holds the dataset's lock and, once the mutation
   * waits for it, removes the column as the column-remove use-case does (under the dataset lock) and
   * commits: the mutation runs after the removal, so it must see it.
   */
  async function removeColumnDuringLockWait<T>(
    datasetId: string,
    identifier: string,
    mutation: () => Promise<T>,
  ): Promise<PromiseSettledResult<T>> {
    let outcome: Promise<PromiseSettledResult<T>> | undefined;
    await holdingDatasetLock(datasetId, async (trx) => {
      outcome = settle(mutation());
      await untilLockWaiters(1);
      await sql`
        UPDATE dataset_columns SET removed_at = now()
        WHERE dataset_id = ${datasetId} AND identifier = ${identifier}`.execute(trx);
      await sql`UPDATE datasets SET updated_at = now() WHERE id = ${datasetId}`.execute(trx);
    });
    return outcome as Promise<PromiseSettledResult<T>>;
  }

  const stored = (datasetId: string) =>
    suite.backend.database.db
      .selectFrom("dataset_rows")
      .select(["row_id", "custom", "version"])
      .where("dataset_id", "=", datasetId)
      .orderBy("row_id")
      .execute();

  it("refuses an edit of the removed column with unknown_column and changes nothing", async () => {
    const { params, id, column } = await makeDataset();
    const before = await stored(id);
    const settled = await removeColumnDuringLockWait(id, column, () =>
      suite.caller.call(operations.updateDatasetRow, {
        params: { ...params, rowId: "r1" },
        body: { custom: { [column]: 2 } },
      }),
    );
    const error = await reasonOf(settled);
    expect(error).toMatchObject({ code: "unknown_column", details: { column } });
    expect(await stored(id)).toEqual(before);
    expect(await currentVersion(suite.backend, id)).toBe(1);
    await auditDataset(suite.backend, id);
  });

  it("serialises the column-remove use-case with an edit queued behind it", async () => {
    const { params, id, column } = await makeDataset();
    const before = await stored(id);
    let removal: Promise<PromiseSettledResult<unknown>> | undefined;
    let edit: Promise<PromiseSettledResult<unknown>> | undefined;
    await holdingDatasetLock(id, async () => {
      removal = settle(
        suite.caller.call(operations.deleteDatasetColumn, { params: { ...params, identifier: column } }),
      );
      await untilLockWaiters(1);
      edit = settle(
        suite.caller.call(operations.updateDatasetRow, {
          params: { ...params, rowId: "r1" },
          body: { custom: { [column]: 2 } },
        }),
      );
      await untilLockWaiters(2);
    });
    expect(await removal).toEqual({ status: "fulfilled", value: null });
    expect(await reasonOf((await edit) as PromiseSettledResult<unknown>)).toMatchObject({
      code: "unknown_column",
      details: { column },
    });
    expect(await stored(id)).toEqual(before);
    expect(await currentVersion(suite.backend, id)).toBe(1);
  });

  it("refuses an insert naming the removed column with unknown_column and changes nothing", async () => {
    const { params, id, column } = await makeDataset();
    const before = await stored(id);
    const settled = await removeColumnDuringLockWait(id, column, () =>
      suite.caller.call(operations.insertDatasetRows, {
        params,
        body: { rows: [{ id: "r2", input: "q2", custom: { [column]: 3 } }] },
      }),
    );
    const error = await reasonOf(settled);
    expect(error).toMatchObject({ code: "unknown_column", details: { column } });
    expect(await stored(id)).toEqual(before);
    expect(await currentVersion(suite.backend, id)).toBe(1);
  });

  it("refuses an import once the metadata column it fills was removed, and changes nothing", async () => {
    const { params, id } = await makeDataset();
    const [traceId] = await makeAgentTraces(suite.backend.database.db, suite.caller.projectId, [
      { startMs: 0, input: "q", output: "a" },
    ]);
    const before = await stored(id);
    const settled = await removeColumnDuringLockWait(id, "metadata", () =>
      suite.caller.call(operations.importDatasetRowsFromTraces, {
        params,
        body: { traces: { by: "ids", ids: [traceId] } },
      }),
    );
    const error = await reasonOf(settled);
    expect(error).toMatchObject({ code: "unknown_column", details: { column: "metadata" } });
    expect(await stored(id)).toEqual(before);
    expect(await currentVersion(suite.backend, id)).toBe(1);
  });

  it("takes an idempotency key before the dataset lock in an edit, as every other mutation does", async () => {
    const { params, id } = await makeDataset();
    let edit: Promise<PromiseSettledResult<unknown>> | undefined;
    let insert: Promise<PromiseSettledResult<unknown>> | undefined;
    // One key, two requests: whichever comes second must be told the key was used, not deadlock.
    await holdingDatasetLock(id, async () => {
      edit = settle(
        suite.caller.call(
          operations.updateDatasetRow,
          { params: { ...params, rowId: "r1" }, body: { output: "edited" } },
          "shared-key",
        ),
      );
      await untilLockWaiters(1);
      insert = settle(
        suite.caller.call(
          operations.insertDatasetRows,
          { params, body: { rows: [{ id: "r2", input: "q2" }] } },
          "shared-key",
        ),
      );
      await untilLockWaiters(2);
    });
    expect(await edit).toEqual({ status: "fulfilled", value: expect.objectContaining({ version: 2 }) });
    expect(await reasonOf((await insert) as PromiseSettledResult<unknown>)).toMatchObject({
      code: "idempotency_key_reused",
    });
    expect((await stored(id)).map((row) => row.row_id)).toEqual(["r1"]);
    expect(await currentVersion(suite.backend, id)).toBe(2);
    await auditDataset(suite.backend, id);
  });

  /** An edit straight through row edits of the test's own, as the writer's handler makes it. */
  const editWith = (rowEdits: RowEdits, datasetSlug: string, output: string) =>
    updateDatasetRow(
      rowEdits,
      suite.caller.context,
      parseOperationInput(operations.updateDatasetRow, {
        params: { projectSlug: suite.caller.projectSlug, datasetSlug, rowId: "r1" },
        query: {},
        body: { output },
        headers: {},
      }),
    );
  const within = <T>(promise: Promise<T>, ms: number) =>
    Promise.race([promise.then(() => "done" as const), delay(ms).then(() => "waiting" as const)]);

  it.each([
    ["starts another transaction once the stalled one has run stallMs", 50, "done"],
    ["keeps to one transaction while the running one has not stalled", 60_000, "waiting"],
  ] as const)("%s, so other datasets' edits do not wait behind a lock", async (_name, stallMs, expected) => {
    const rowEdits = groupRowEdits(suite.backend.database.db, { ...defaultGroupCommitOptions, stallMs });
    const [blocked, free] = [await makeDataset(), await makeDataset()];
    let stuck: Promise<unknown> | undefined;
    let other: Promise<unknown> | undefined;
    await holdingDatasetLock(blocked.id, async () => {
      stuck = settle(editWith(rowEdits, blocked.params.datasetSlug, "behind the lock"));
      await untilLockWaiters(1);
      other = settle(editWith(rowEdits, free.params.datasetSlug, "elsewhere"));
      expect(await within(other, 2_000)).toBe(expected);
    });
    // Once the lock is gone, both are applied, each as its dataset's next version.
    expect(await stuck).toEqual({
      status: "fulfilled",
      value: { versionId: expect.any(String), version: 2 },
    });
    expect(await other).toEqual({
      status: "fulfilled",
      value: { versionId: expect.any(String), version: 2 },
    });
  });
});
