import { operations } from "@svc/contracts";
import { availableBackends, newTraceId, T0_MS } from "@svc/testing";
import { describe, expect, it } from "vitest";
import { createDataset, failure, makeAgentTraces, makeCaller, writerSuite } from "../test-support";

describe.each(availableBackends())("importing rows from traces (%s)", (backendName) => {
  const suite = writerSuite(backendName);
  const db = () => suite.backend.database.db;

  /** Numbers the user ids of a test's traces, so that its filters match only them. */
  let counter = 0;
  const importTraces = (params: { datasetSlug: string }, traces: unknown, key?: string) =>
    suite.caller.call(operations.importDatasetRowsFromTraces, { params, body: { traces } }, key);

  async function stateOf(datasetId: string) {
    const dataset = await db()
      .selectFrom("datasets")
      .select("current_version")
      .where("id", "=", datasetId)
      .executeTakeFirstOrThrow();
    const rows = await db()
      .selectFrom("dataset_rows")
      .select(["row_id", "input", "output", "expected_output", "metadata", "version", "created_at"])
      .where("dataset_id", "=", datasetId)
      .orderBy("created_at")
      .execute();
    const versions = await db()
      .selectFrom("dataset_versions")
      .select(["version", "operation", "rows_inserted"])
      .where("dataset_id", "=", datasetId)
      .orderBy("version")
      .execute();
    return { version: dataset.current_version, rows, versions };
  }

  it("imports the given traces, in their order, as rows of one new version", async () => {
    const { id, params } = await createDataset(suite.caller);
    const [first, second] = await makeAgentTraces(db(), suite.caller.projectId, [
      { startMs: 0, input: [{ role: "user", content: "Hi" }], output: "Hello!" },
      { startMs: 10, input: "Where is my refund?", output: { answer: "Sent today" } },
    ]);

    const result = await importTraces(params, { by: "ids", ids: [second, first] });

    expect(result).toEqual({
      versionId: expect.any(String),
      version: 1,
      rowIds: [expect.any(String), expect.any(String)],
    });
    const state = await stateOf(id);
    expect(state.versions).toEqual([{ version: 1, operation: "import", rows_inserted: 2 }]);
    expect(state.rows.map((row) => row.row_id)).toEqual(result.rowIds);
    expect(state.rows[0]).toMatchObject({
      input: "Where is my refund?",
      output: { answer: "Sent today" },
      expected_output: null,
      version: 1,
      metadata: {
        source: "trace",
        traceId: second,
        rootSpanName: "agent",
        sessionId: "s-1",
        userId: null,
        startTime: new Date(T0_MS + 10).toISOString(),
        durationNs: "250000000",
        models: ["gpt-4o"],
        tags: ["prod"],
        tokensTotal: 15,
        costTotalMicrocents: 700,
      },
    });
    expect(state.rows[1]).toMatchObject({
      input: [{ role: "user", content: "Hi" }],
      output: "Hello!",
      metadata: expect.objectContaining({ traceId: first }),
    });
  });

  it("imports a trace named twice once", async () => {
    const { id, params } = await createDataset(suite.caller);
    const [trace] = await makeAgentTraces(db(), suite.caller.projectId, [{ startMs: 0 }]);

    const result = await importTraces(params, { by: "ids", ids: [trace, (trace as string).toUpperCase()] });

    expect(result.rowIds).toHaveLength(1);
    expect((await stateOf(id)).rows).toHaveLength(1);
  });

  it("imports every trace that matches the filters, earliest first", async () => {
    const { id, params } = await createDataset(suite.caller);
    const user = `user-${++counter}`;
    const [late, early] = await makeAgentTraces(db(), suite.caller.projectId, [
      { startMs: 500, userId: user },
      { startMs: 100, userId: user },
      { startMs: 300, userId: "someone-else" },
    ]);

    const result = await importTraces(params, {
      by: "filters",
      filters: [{ field: "userId", op: "eq", value: user }],
    });

    const state = await stateOf(id);
    expect(result).toMatchObject({ version: 1 });
    expect(state.rows.map((row) => (row.metadata as { traceId: string }).traceId)).toEqual([early, late]);
    expect(state.versions).toEqual([{ version: 1, operation: "import", rows_inserted: 2 }]);
  });

  it("answers a retry with the same Idempotency-Key with the first answer, and imports once", async () => {
    const { id, params } = await createDataset(suite.caller);
    const ids = await makeAgentTraces(db(), suite.caller.projectId, [{ startMs: 0 }]);

    const first = await importTraces(params, { by: "ids", ids }, "import-once");
    const again = await importTraces(params, { by: "ids", ids }, "import-once");

    expect(again).toEqual(first);
    expect((await stateOf(id)).versions).toHaveLength(1);
  });

  describe("refuses, writing nothing,", () => {
    it("more than 1000 trace ids, with 422 too_many_traces", async () => {
      const { id, params } = await createDataset(suite.caller);
      const ids = Array.from({ length: 1001 }, newTraceId);

      const error = await failure(importTraces(params, { by: "ids", ids }));

      expect(error).toEqual({
        code: "too_many_traces",
        message: "1001 traces requested; import at most 1000 at once, in several imports if need be",
        details: { limit: 1000, requested: 1001 },
      });
      expect(await stateOf(id)).toMatchObject({ version: 0, rows: [], versions: [] });
    });

    it("filters that match more than 1000 traces, with 422 too_many_traces", async () => {
      const { id, params } = await createDataset(suite.caller);
      const user = `crowd-${++counter}`;
      await makeAgentTraces(
        db(),
        suite.caller.projectId,
        Array.from({ length: 1001 }, (_, index) => ({ startMs: index, userId: user })),
      );

      const error = await failure(
        importTraces(params, { by: "filters", filters: [{ field: "userId", op: "eq", value: user }] }),
      );

      expect(error).toEqual({
        code: "too_many_traces",
        message: "More than 1000 traces match these filters; narrow them to import at most 1000 at once",
        details: { limit: 1000 },
      });
      expect(await stateOf(id)).toMatchObject({ version: 0, rows: [], versions: [] });

      const exactly = await importTraces(params, {
        by: "filters",
        filters: [
          { field: "userId", op: "eq", value: user },
          { field: "startTime", op: "gt", value: new Date(T0_MS).toISOString() },
        ],
      });
      expect(exactly.rowIds).toHaveLength(1000);
      expect((await stateOf(id)).versions).toEqual([
        { version: 1, operation: "import", rows_inserted: 1000 },
      ]);
    });

    it("trace ids that do not exist, naming them with 404", async () => {
      const { id, params } = await createDataset(suite.caller);
      const [known] = await makeAgentTraces(db(), suite.caller.projectId, [{ startMs: 0 }]);
      const unknown = [newTraceId(), newTraceId()];

      const error = await failure(importTraces(params, { by: "ids", ids: [known, ...unknown] }));

      expect(error).toEqual({
        code: "not_found",
        message: `2 traces not found in project "${suite.caller.projectSlug}": ${unknown.join(", ")}; nothing was imported`,
        details: { traceIds: unknown },
      });
      expect(await stateOf(id)).toMatchObject({ version: 0, rows: [], versions: [] });
    });

    it("a trace of another project, as unknown", async () => {
      const { params } = await createDataset(suite.caller);
      const other = await makeCaller(suite.backend);
      const otherProject = await db()
        .selectFrom("projects")
        .select("id")
        .where("slug", "=", other.projectSlug)
        .executeTakeFirstOrThrow();
      const [foreign] = await makeAgentTraces(db(), otherProject.id, [{ startMs: 0 }]);

      expect(await failure(importTraces(params, { by: "ids", ids: [foreign] }))).toMatchObject({
        code: "not_found",
        details: { traceIds: [foreign] },
      });
    });

    it("filters that match no trace, with 404", async () => {
      const { id, params } = await createDataset(suite.caller);
      const error = await failure(
        importTraces(params, { by: "filters", filters: [{ field: "userId", op: "eq", value: "nobody" }] }),
      );
      expect(error).toEqual({
        code: "not_found",
        message: `No trace of project "${suite.caller.projectSlug}" matches these filters; nothing was imported`,
      });
      expect((await stateOf(id)).version).toBe(0);
    });

    it("an import into a dataset whose output column was removed", async () => {
      const { id, params } = await createDataset(suite.caller);
      const ids = await makeAgentTraces(db(), suite.caller.projectId, [{ startMs: 0 }]);
      await suite.caller.call(operations.deleteDatasetColumn, {
        params: { ...params, identifier: "output" },
      });

      expect(await failure(importTraces(params, { by: "ids", ids }))).toMatchObject({
        code: "unknown_column",
        details: { column: "output" },
      });
      expect((await stateOf(id)).version).toBe(0);
    });

    it.each([
      ["an empty id list", { by: "ids", ids: [] }],
      ["a malformed trace id", { by: "ids", ids: ["abc"] }],
      ["an unknown selection", { by: "query", q: "x" }],
      [
        "a filter on an unknown field",
        { by: "filters", filters: [{ field: "colour", op: "eq", value: "red" }] },
      ],
    ])("%s, with 400", async (_label, traces) => {
      const { id, params } = await createDataset(suite.caller);
      expect(await failure(importTraces(params, traces))).toMatchObject({ code: "validation_failed" });
      expect((await stateOf(id)).version).toBe(0);
    });

    it("an unknown dataset, with 404", async () => {
      const ids = await makeAgentTraces(db(), suite.caller.projectId, [{ startMs: 0 }]);
      expect(await failure(importTraces({ datasetSlug: "no-such-set" }, { by: "ids", ids }))).toMatchObject({
        code: "not_found",
      });
    });

    it("a viewer key", async () => {
      const viewer = await makeCaller(suite.backend, "viewer");
      expect(
        await failure(
          viewer.call(operations.importDatasetRowsFromTraces, {
            params: { datasetSlug: "any" },
            body: { traces: { by: "ids", ids: [newTraceId()] } },
          }),
        ),
      ).toMatchObject({ code: "forbidden" });
    });
  });
});
