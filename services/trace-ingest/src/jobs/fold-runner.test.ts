import { parseOperationInput } from "@svc/bus";
import { operations } from "@svc/contracts";
import {
  type Database,
  foldMarkedTraces,
  foldProjectTraces,
  listTraceRecords,
  markTraceFolds,
  refillTraceMetrics,
} from "@svc/db";
import { silentLogger } from "@svc/telemetry";
import { availableBackends, type Backend, makeProject, openBackend, type ProjectFixture } from "@svc/testing";
import { type Kysely, sql } from "kysely";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { exportRequest, newSpanId, newTraceId, otlpSpan } from "../test-factories";
import { ingestTraces } from "../use-cases/ingest-traces";
import { type FoldRunner, startFoldRunner } from "./fold-runner";

/*
 * Folding marked traces into their summaries and metrics (decision 0051), with the ingest's use-case
 * called directly: no runner folds behind the test's back unless the test starts one.
 */
describe.each(availableBackends())("folding traces (%s)", (backendName) => {
  let backend: Backend;
  let db: Kysely<Database>;
  let project: ProjectFixture;
  const runners: FoldRunner[] = [];

  beforeAll(async () => {
    backend = await openBackend(backendName);
    db = backend.database.db;
  });
  afterAll(async () => {
    for (const runner of runners) runner.stop();
    await backend.close();
  });
  beforeEach(async () => {
    project = await makeProject(db);
  });

  /** Stores spans as one export request, the way the ingest's handler does, without folding them. */
  const store = (spans: readonly Record<string, unknown>[]) =>
    ingestTraces(
      db,
      { organizationId: project.organizationId },
      parseOperationInput(operations.ingestTraces, {
        params: {},
        query: {},
        body: exportRequest(spans),
        headers: { xSvcProject: project.projectSlug },
      }),
    );
  /** A trace of `count` spans under a root, all at the same model. */
  const traceSpans = (traceId: string, count: number, startMs = 0) => {
    const root = newSpanId();
    return [
      otlpSpan({ traceId, spanId: root, name: "agent", startMs, endMs: startMs + 100 }),
      ...Array.from({ length: count - 1 }, (_, i) =>
        otlpSpan({
          traceId,
          parentSpanId: root,
          name: "chat",
          startMs: startMs + i,
          endMs: startMs + i + 5,
          attributes: { "gen_ai.request.model": "gpt-4o", "gen_ai.usage.input_tokens": 10 },
        }),
      ),
    ];
  };
  const marks = async () => {
    const { rows } = await sql<{ trace_id: string }>`
      SELECT trace_id FROM trace_folds WHERE project_id = ${project.projectId} ORDER BY trace_id`.execute(db);
    return rows.map((row) => row.trace_id);
  };
  const summaries = async () =>
    (await listTraceRecords(db, { projectId: project.projectId })).sort((a, b) =>
      a.traceId < b.traceId ? -1 : 1,
    );
  /** The project's metric rows that count something, in key order, every column as text. */
  const metricRows = async () => {
    const { rows } = await sql<Record<string, string>>`
      SELECT width, grouping, bucket_start::text, group_value, traces::text, errors::text,
             tokens_input::text, tokens_output::text, cost_microcents::text, latency::text
      FROM trace_metrics WHERE project_id = ${project.projectId} AND traces <> 0
      ORDER BY width, grouping, bucket_start, group_value`.execute(db);
    return rows;
  };
  /** The metrics as they would be rebuilt from the stored summaries: what folding must have kept. */
  const rebuiltMetricRows = async () => {
    await refillTraceMetrics(db, project.projectId);
    return metricRows();
  };
  const until = async (check: () => Promise<boolean>) => {
    const deadline = Date.now() + 10_000;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error("timed out waiting for the fold");
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  };

  test("keeps a trace's mark with its spans until a process folds it, even one started later", async () => {
    const traceId = newTraceId();
    await store(traceSpans(traceId, 3));
    // What a process that stopped right after answering leaves: the spans and the mark, no summary.
    expect(await marks()).toEqual([traceId]);
    expect(await summaries()).toEqual([]);

    const runner = startFoldRunner({ db, logger: silentLogger() }, { delayMs: 1, pollMs: 20 });
    runners.push(runner);
    await until(async () => (await marks()).length === 0);
    runner.stop();
    expect(await summaries()).toEqual([
      expect.objectContaining({ traceId, spanCount: 3, rootSpanName: "agent", tokensInput: 20 }),
    ]);
    expect(await metricRows()).toContainEqual(
      expect.objectContaining({ width: "hour", grouping: "all", traces: "1", tokens_input: "20" }),
    );
  });

  test("counts every trace once when two replicas and a read fold at once while spans keep coming", async () => {
    const traceIds = Array.from({ length: 40 }, () => newTraceId());
    const sent = traceIds.map((traceId, i) => traceSpans(traceId, 4, i * 1_000));
    // Half of each trace's spans first, then the other half while the folds run: a trace is folded
    // before and after its later spans, and some while they are being stored.
    for (let i = 0; i < traceIds.length; i += 10) {
      await store(sent.slice(i, i + 10).flatMap((spans) => spans.slice(0, 2)));
    }
    const replicas = [1, 2].map(() =>
      startFoldRunner({ db, logger: silentLogger() }, { delayMs: 1, pollMs: 5 }),
    );
    runners.push(...replicas);
    const storing = (async () => {
      for (let i = 0; i < traceIds.length; i += 5) {
        await store(sent.slice(i, i + 5).flatMap((spans) => spans.slice(2)));
        for (const replica of replicas) replica.wake();
      }
    })();
    await Promise.all([
      storing,
      foldMarkedTraces(db, 7),
      foldMarkedTraces(db, 7),
      foldProjectTraces(db, project.organizationId, project.projectSlug),
    ]);
    for (const replica of replicas) replica.stop();
    await foldProjectTraces(db, project.organizationId, project.projectSlug);

    expect(await marks()).toEqual([]);
    const folded = await summaries();
    expect(folded.map((trace) => [trace.traceId, trace.spanCount, trace.tokensInput])).toEqual(
      [...traceIds].sort().map((traceId) => [traceId, 4, 30]),
    );
    const kept = await metricRows();
    expect(kept).toContainEqual(
      expect.objectContaining({ width: "hour", grouping: "all", traces: "40", tokens_input: "1200" }),
    );
    expect(kept).toEqual(await rebuiltMetricRows());
  });

  test("a read folds the marks made before it began, and leaves later ones to the background", async () => {
    const [before, after] = [newTraceId(), newTraceId()];
    await store([...traceSpans(before, 2), ...traceSpans(after, 2)]);
    // A mark made while the read folds, as a steady ingest into the project makes them: its time is
    // after the read's start, so the read does not wait for it (it would never end under such a load).
    await sql`UPDATE trace_folds SET marked_at = now() + interval '1 hour' WHERE trace_id = ${after}`.execute(
      db,
    );
    await foldProjectTraces(db, project.organizationId, project.projectSlug);
    expect(await marks()).toEqual([after]);
    expect((await summaries()).map((trace) => trace.traceId)).toEqual([before]);
    await foldMarkedTraces(db);
    expect(await marks()).toEqual([]);
  });

  test("changes nothing when a trace is folded again without new spans", async () => {
    const traceIds = [newTraceId(), newTraceId()];
    await store(traceIds.flatMap((traceId) => traceSpans(traceId, 2)));
    await foldProjectTraces(db, project.organizationId, project.projectSlug);
    const [before, metricsBefore] = [await summaries(), await metricRows()];

    await markTraceFolds(db, project.projectId, traceIds);
    await foldProjectTraces(db, project.organizationId, project.projectSlug);
    expect(await summaries()).toEqual(before);
    expect(await metricRows()).toEqual(metricsBefore);
  });

  test("stores a batch an exporter sends again once, and counts its traces once", async () => {
    const traceIds = [newTraceId(), newTraceId(), newTraceId()];
    const batch = traceIds.flatMap((traceId) => traceSpans(traceId, 3));
    await store(batch);
    await foldMarkedTraces(db);
    // Sent again: once after its first copy was folded, once before.
    await store(batch);
    await store(batch);
    await foldProjectTraces(db, project.organizationId, project.projectSlug);

    const { rows } = await sql<{ spans: number }>`
      SELECT count(*)::int AS spans FROM spans WHERE project_id = ${project.projectId}`.execute(db);
    expect(rows[0]?.spans).toBe(9);
    expect((await summaries()).map((trace) => trace.spanCount)).toEqual([3, 3, 3]);
    const kept = await metricRows();
    expect(kept).toContainEqual(expect.objectContaining({ width: "minute", grouping: "all", traces: "3" }));
    expect(kept).toEqual(await rebuiltMetricRows());
  });
});
