import { randomUUID } from "node:crypto";
import { GATEWAY_KEY_PREFIX, operations } from "@svc/contracts";
import { availableBackends } from "@svc/testing";
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import {
  auditDataset,
  createDataset,
  currentVersion,
  failure,
  insertRows,
  makeCaller,
  rowRevisions,
  writerSuite,
} from "../test-support";

describe.each(availableBackends())("row edits (%s)", (backendName) => {
  const suite = writerSuite(backendName);

  /** A dataset with `columns` custom columns and one row holding a value in every cell. */
  async function makeDataset({ columns = 2 } = {}) {
    const dataset = await createDataset(
      suite.caller,
      Array.from({ length: columns }, (_, i) => `c${i}`),
    );
    const custom = Object.fromEntries(dataset.columns.map((id, i) => [id, { value: i }]));
    await insertRows(suite.caller, dataset.params, [
      { id: "row-1", input: { q: "2+2" }, output: "5", expectedOutput: "", metadata: { tag: "a" }, custom },
    ]);
    return { params: dataset.params, columnIds: dataset.columns, slug: dataset.slug, id: dataset.id };
  }

  /** Edits one row as PATCH …/rows/:rowId does, with an If-Match header or an Idempotency-Key if given. */
  const editRow = (
    params: { datasetSlug: string },
    rowId: string,
    body: unknown,
    { ifMatch, idempotencyKey }: { ifMatch?: string; idempotencyKey?: string } = {},
  ) =>
    suite.caller.call(
      operations.updateDatasetRow,
      { params: { ...params, rowId }, body, ...(ifMatch === undefined ? {} : { headers: { ifMatch } }) },
      idempotencyKey,
    );

  async function storedRow(datasetId: string, rowId: string) {
    return suite.backend.database.db
      .selectFrom("dataset_rows")
      .selectAll()
      .where("dataset_id", "=", datasetId)
      .where("row_id", "=", rowId)
      .executeTakeFirstOrThrow();
  }

  it("creates a dataset at version 0 with the four built-in columns", async () => {
    const dataset = await suite.caller.call(operations.createDataset, { body: { name: "Fresh set" } });
    expect(dataset.version).toBe(0);
    expect(dataset.slug).toBe("fresh-set");
    expect(dataset.columns.map((c) => c.identifier)).toEqual([
      "input",
      "output",
      "expectedOutput",
      "metadata",
    ]);
  });

  it("edits one cell and leaves every other cell, built-in and custom, as it was", async () => {
    const { params, columnIds, id } = await makeDataset();
    const before = await storedRow(id, "row-1");
    const result = await editRow(params, "row-1", { expectedOutput: { answer: "4" } });
    expect(result.version).toBe(2);
    expect(result.versionId).toHaveLength(24);
    const after = await storedRow(id, "row-1");
    expect(after.expected_output).toEqual({ answer: "4" });
    expect(after.input).toEqual(before.input);
    expect(after.output).toEqual("5");
    expect(after.metadata).toEqual({ tag: "a" });
    expect(after.custom).toEqual({
      [columnIds[0] as string]: { value: 0 },
      [columnIds[1] as string]: { value: 1 },
    });
    expect(after.version).toBe(2);
  });

  it("merges custom cells: keys left out are untouched, null sets a cell to null", async () => {
    const { params, columnIds, id } = await makeDataset({ columns: 3 });
    const [a, b, c] = columnIds as [string, string, string];
    await editRow(params, "row-1", { custom: { [b]: null, [c]: "" } });
    const after = await storedRow(id, "row-1");
    expect(after.custom).toEqual({ [a]: { value: 0 }, [b]: null, [c]: "" });
    expect(after.expected_output).toBe("");
  });

  it("keeps {} as {} and null as null", async () => {
    const { params, id } = await makeDataset({ columns: 0 });
    await editRow(params, "row-1", { output: {}, metadata: null });
    const after = await storedRow(id, "row-1");
    expect(after.output).toEqual({});
    expect(after.metadata).toBeNull();
  });

  it.each([
    ["an unknown column", () => "zzzzzzzzzzzzzzzzzzzzzzzz"],
    ["a built-in field", () => "expectedOutput"],
  ])("rejects a custom key naming %s, changing nothing", async (_label, key) => {
    const { params, id } = await makeDataset();
    const before = await storedRow(id, "row-1");
    const error = await failure(editRow(params, "row-1", { expectedOutput: "x", custom: { [key()]: 1 } }));
    expect(error.code).toBe("unknown_column");
    expect(error.message).toContain(key());
    expect(await storedRow(id, "row-1")).toEqual(before);
    expect(await currentVersion(suite.backend, id)).toBe(1);
  });

  it("rejects a custom key naming a removed column, and accepts it again after restore", async () => {
    const { params, columnIds, id } = await makeDataset();
    const removed = columnIds[0] as string;
    await suite.caller.call(operations.deleteDatasetColumn, { params: { ...params, identifier: removed } });
    const edit = () => editRow(params, "row-1", { custom: { [removed]: "new" } });
    const error = await failure(edit());
    expect(error).toMatchObject({ code: "unknown_column", details: { column: removed } });
    expect(error.message).toBe(
      `Unknown or removed column "${removed}"; list the dataset's columns to see the active identifiers`,
    );
    expect(await currentVersion(suite.backend, id)).toBe(1);

    const restored = await suite.caller.call(operations.restoreDatasetColumn, {
      params: { ...params, identifier: removed },
    });
    expect(restored).toEqual({ identifier: removed, name: "c0", source: { kind: "custom" } });
    expect(await edit()).toMatchObject({ version: 2 });
    expect((await storedRow(id, "row-1")).custom[removed]).toBe("new");
  });

  it("rejects a built-in cell whose column was removed", async () => {
    const { params, id } = await makeDataset({ columns: 0 });
    await suite.caller.call(operations.deleteDatasetColumn, {
      params: { ...params, identifier: "metadata" },
    });
    const error = await failure(editRow(params, "row-1", { metadata: 1 }));
    expect(error.code).toBe("unknown_column");
    expect(await currentVersion(suite.backend, id)).toBe(1);
  });

  it("applies If-Match only when the row's version matches, else 412 with the current version", async () => {
    const { params, id } = await makeDataset({ columns: 0 });
    const stale = await failure(editRow(params, "row-1", { output: "x" }, { ifMatch: "7" }));
    expect(stale).toMatchObject({
      code: "version_mismatch",
      details: { currentVersion: 1, expectedVersion: 7 },
    });
    expect(await currentVersion(suite.backend, id)).toBe(1);
    const ok = await editRow(params, "row-1", { output: "x" }, { ifMatch: "1" });
    expect(ok.version).toBe(2);
  });

  it("compares If-Match with the row's version, not the dataset's", async () => {
    const { params, id } = await makeDataset({ columns: 0 });
    await insertRows(suite.caller, params, [{ id: "row-2", input: 2 }]);
    await editRow(params, "row-2", { output: "moved on" });
    // The dataset is at version 3; row-1 last changed at version 1.
    expect(await currentVersion(suite.backend, id)).toBe(3);
    const before = await storedRow(id, "row-1");
    const stale = await failure(editRow(params, "row-1", { output: "x" }, { ifMatch: "3" }));
    expect(stale).toEqual({
      code: "version_mismatch",
      message: `Row "row-1" was changed at version 1, not 3; read it again and retry`,
      details: { currentVersion: 1, expectedVersion: 3 },
    });
    expect(await storedRow(id, "row-1")).toEqual(before);
    expect(await currentVersion(suite.backend, id)).toBe(3);
    const ok = await editRow(params, "row-1", { output: "x" }, { ifMatch: "1" });
    expect(ok.version).toBe(4);
    expect(await storedRow(id, "row-1")).toMatchObject({ output: "x", version: 4 });
  });

  it("answers 404 for an unknown row without using a version", async () => {
    const { params, id } = await makeDataset({ columns: 0 });
    const error = await failure(editRow(params, "nope", { output: 1 }));
    expect(error.code).toBe("not_found");
    expect(await currentVersion(suite.backend, id)).toBe(1);
  });

  it.each([
    ["an empty body", {}],
    ["an unknown top-level field", { output: 1, colour: "red" }],
    ["a body that is not an object", [1, 2]],
  ])("refuses %s with validation_failed", async (_label, body) => {
    const { params, id } = await makeDataset({ columns: 0 });
    const error = await failure(editRow(params, "row-1", body));
    expect(error.code).toBe("validation_failed");
    expect(await currentVersion(suite.backend, id)).toBe(1);
  });

  it('refuses {"custom": {}} alone with validation_failed: it names no cell', async () => {
    const { params, id } = await makeDataset({ columns: 1 });
    const before = await storedRow(id, "row-1");
    const error = await failure(editRow(params, "row-1", { custom: {} }));
    expect(error).toEqual({
      code: "validation_failed",
      message:
        "Request is invalid: body.custom: the edit names no cell: custom is empty and no input, output, expectedOutput or metadata is given",
      details: { issues: [expect.objectContaining({ path: "body.custom" })] },
    });
    expect(await storedRow(id, "row-1")).toEqual(before);
    expect(await currentVersion(suite.backend, id)).toBe(1);
  });

  it("refuses a cell holding U+0000, which PostgreSQL cannot store, with validation_failed", async () => {
    const { params, id } = await makeDataset({ columns: 0 });
    const before = await storedRow(id, "row-1");
    const edit = await failure(editRow(params, "row-1", { output: { text: "a\u0000b" } }));
    expect(edit).toMatchObject({
      code: "validation_failed",
      details: { issues: [expect.objectContaining({ path: "body.output.text" })] },
    });
    const insert = await failure(insertRows(suite.caller, params, [{ input: "\u0000" }]));
    expect(insert).toMatchObject({
      code: "validation_failed",
      details: { issues: [expect.objectContaining({ path: "body.rows.0.input" })] },
    });
    expect(await storedRow(id, "row-1")).toEqual(before);
    expect(await currentVersion(suite.backend, id)).toBe(1);
  });

  it.each([
    ["an empty If-Match", ""],
    ["an If-Match that is not a version", "0x1"],
  ])("refuses %s with validation_failed instead of reading it as a version", async (_label, ifMatch) => {
    const { params, id } = await makeDataset({ columns: 0 });
    const error = await failure(editRow(params, "row-1", { output: "x" }, { ifMatch }));
    expect(error).toMatchObject({
      code: "validation_failed",
      details: { issues: [{ path: "header.If-Match", message: "must be an integer from 0 to 2147483647" }] },
    });
    expect(await currentVersion(suite.backend, id)).toBe(1);
  });

  it("refuses a row id that breaks the id rule", async () => {
    const { params } = await makeDataset({ columns: 0 });
    const error = await failure(editRow(params, "a b/c", { output: 1 }));
    expect(error.code).toBe("validation_failed");
  });

  it("forbids a viewer from writing", async () => {
    const viewer = await makeCaller(suite.backend, "viewer");
    const error = await failure(viewer.call(operations.createDataset, { body: { name: "x" } }));
    expect(error.code).toBe("forbidden");
  });

  it("hides another organisation's datasets behind 404", async () => {
    const { slug } = await makeDataset({ columns: 0 });
    const stranger = await makeCaller(suite.backend);
    const error = await failure(
      stranger.call(operations.updateDatasetRow, {
        params: { projectSlug: suite.caller.projectSlug, datasetSlug: slug, rowId: "row-1" },
        body: { output: 1 },
      }),
    );
    expect(error.code).toBe("not_found");
  });

  it("inserts, deletes and re-inserts a row id, each one version, with history kept", async () => {
    const { params, id } = await makeDataset({ columns: 0 });
    const inserted = await insertRows(suite.caller, params, [{ id: "r2", input: 1 }, { input: 2 }]);
    expect(inserted.version).toBe(2);
    expect(inserted.rowIds[0]).toBe("r2");
    expect(inserted.rowIds[1]).toHaveLength(24);
    const conflict = await failure(insertRows(suite.caller, params, [{ id: "r2", input: 1 }]));
    expect(conflict.code).toBe("conflict");
    const deleted = await suite.caller.call(operations.deleteDatasetRows, {
      params,
      body: { selection: { mode: "selected", rowIds: ["r2", "missing"] } },
    });
    expect(deleted).toMatchObject({ version: 3, deletedCount: 1 });
    const again = await insertRows(suite.caller, params, [{ id: "r2", input: 3 }]);
    expect(again.version).toBe(4);
    expect(await rowRevisions(suite.backend, id, "r2")).toEqual([
      { version_from: 2, version_to: 3, deleted: false },
      { version_from: 3, version_to: 4, deleted: true },
      { version_from: 4, version_to: null, deleted: false },
    ]);
    const nothing = await suite.caller.call(operations.deleteDatasetRows, {
      params,
      body: { selection: { mode: "selected", rowIds: ["missing"] } },
    });
    expect(nothing).toEqual({ versionId: null, version: 4, deletedCount: 0 });
    const allExcept = await suite.caller.call(operations.deleteDatasetRows, {
      params,
      body: { selection: { mode: "allExcept", rowIds: ["r2"] } },
    });
    expect(allExcept).toMatchObject({ version: 5, deletedCount: 2 });
  });

  it("keeps versions gapless when edits of different custom cells of one row race", async () => {
    const { params, columnIds, id } = await makeDataset({ columns: 0 });
    const columns: string[] = [];
    for (let i = 0; i < 20; i++) {
      const column = await suite.caller.call(operations.createDatasetColumn, {
        params,
        body: { name: `k${i}` },
      });
      columns.push(column.identifier);
    }
    expect(columnIds).toEqual([]);
    const results = await Promise.all(
      columns.map((column, i) => editRow(params, "row-1", { custom: { [column]: i } })),
    );
    expect(results.map((r) => r.version).sort((a, b) => a - b)).toEqual(columns.map((_, i) => i + 2));
    const row = await storedRow(id, "row-1");
    expect(row.custom).toEqual(Object.fromEntries(columns.map((c, i) => [c, i])));
    const versions = await sql<{ version: number }>`
      SELECT version FROM dataset_versions WHERE dataset_id = ${id} ORDER BY version`.execute(
      suite.backend.database.db,
    );
    expect(versions.rows.map((r) => r.version)).toEqual(Array.from({ length: 21 }, (_, i) => i + 1));
  });

  it("answers each edit of a concurrent batch on its own: failures leave no trace, the rest get consecutive versions", async () => {
    const { params, columnIds, id } = await makeDataset({ columns: 1 });
    await insertRows(suite.caller, params, [{ id: "row-2", input: 2 }]);
    const column = columnIds[0] as string;
    const attempts = [
      editRow(params, "row-1", { custom: { [column]: "a" } }),
      editRow(params, "row-1", { custom: { nosuchcolumnnosuchcolumn: 1 } }),
      editRow(params, "ghost", { output: 1 }),
      editRow(params, "row-1", { output: "stale" }, { ifMatch: "1" }),
      editRow(params, "row-2", { output: "b" }, { idempotencyKey: "k-batch" }),
      editRow(params, "row-2", { output: "b" }, { idempotencyKey: "k-batch" }),
      editRow(params, "row-2", { output: "c" }, { idempotencyKey: "k-batch" }),
      editRow(params, "row-1", { expectedOutput: "z" }),
    ];
    const settled = await Promise.allSettled(attempts);
    const codes = settled.map((s) => (s.status === "fulfilled" ? "ok" : (s.reason as { code: string }).code));
    expect(codes[1]).toBe("unknown_column");
    expect(codes[2]).toBe("not_found");
    // One key, two bodies: whichever body arrived first wins, the other is refused; the same body twice
    // gets one answer.
    expect(codes[4]).toBe(codes[5]);
    expect([codes[4], codes[6]].sort()).toEqual(["idempotency_key_reused", "ok"]);
    if (settled[4]?.status === "fulfilled" && settled[5]?.status === "fulfilled") {
      expect(settled[5].value).toEqual(settled[4].value);
    }
    const versions = settled.flatMap((s) => (s.status === "fulfilled" ? [s.value.version] : []));
    const distinct = [...new Set(versions)].sort((a, b) => a - b);
    // row-1 edits (2 or 3 of them, depending on whether If-Match saw version 1) and one row-2 edit.
    expect(distinct).toEqual(Array.from({ length: distinct.length }, (_, i) => i + 3));
    const row = await storedRow(id, "row-1");
    expect(row.custom).toEqual({ [column]: "a" });
    expect(row.expected_output).toBe("z");
    await auditDataset(suite.backend, id);
  });

  it("stores the gateway's key with the edit it answers, so that the same request sent again, at once or later, is applied once", async () => {
    const { params, id } = await makeDataset();
    const key = `${GATEWAY_KEY_PREFIX}${randomUUID()}`;
    const send = () => editRow(params, "row-1", { output: "once" }, { idempotencyKey: key });
    // Two tries at once (a resend while the first still runs), then one after both.
    const [first, second] = await Promise.all([send(), send()]);
    const third = await send();
    expect(first).toEqual({ versionId: expect.any(String), version: 2 });
    expect(second).toEqual(first);
    expect(third).toEqual(first);
    const record = await suite.backend.database.db
      .selectFrom("idempotency_records")
      .select(["operation_id", "response"])
      .where("key", "=", key)
      .executeTakeFirstOrThrow();
    expect(record).toEqual({ operation_id: "updateDatasetRow", response: first });
    expect((await storedRow(id, "row-1")).version).toBe(2);
    await auditDataset(suite.backend, id);
  });

  it("keeps no gateway key for an edit it refuses, so that the request sent again is judged again", async () => {
    const { params } = await makeDataset();
    const key = `${GATEWAY_KEY_PREFIX}${randomUUID()}`;
    const send = () => editRow(params, "row-1", { output: "late" }, { ifMatch: "7", idempotencyKey: key });
    expect(await failure(send())).toMatchObject({ code: "version_mismatch" });
    expect(await failure(send())).toMatchObject({ code: "version_mismatch" });
    const records = await suite.backend.database.db
      .selectFrom("idempotency_records")
      .select("key")
      .where("key", "=", key)
      .execute();
    expect(records).toEqual([]);
  });
});
