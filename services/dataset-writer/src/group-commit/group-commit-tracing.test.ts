// First, for its side effect: the instrumentation must be in place before anything loads `pg`.
import "../test-tracing";

import { type Tracer, trace } from "@opentelemetry/api";
import type { ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { operations } from "@svc/contracts";
import { realInfra } from "@svc/testing";
import { sql } from "kysely";
import { afterAll, describe, expect, it } from "vitest";
import { createDataset, insertRows, writerSuite } from "../test-support";
import { pgInstrumentation, provider, spans } from "../test-tracing";
import {
  BATCH_SIZE_ATTRIBUTE,
  BATCH_SPAN,
  BATCHED_EDIT_SPAN,
  ONE_BY_ONE_ATTRIBUTE,
  STALE_EVENT,
} from "./group-commit-tracing";

const PG_SCOPE = "@opentelemetry/instrumentation-pg";
const SUBJECT = operations.updateDatasetRow.subject;
const EDITS = 12;

describe.runIf(realInfra())("traces of edits applied in batches", () => {
  const suite = writerSuite("distributed");
  const tracer: Tracer = trace.getTracer("test");

  afterAll(async () => {
    pgInstrumentation.disable();
  });

  const lockWaiters = async () =>
    (
      await sql<{ n: number }>`
        SELECT count(*)::int AS n FROM pg_stat_activity
        WHERE datname = current_database() AND wait_event_type = 'Lock'`.execute(suite.backend.database.db)
    ).rows[0]?.n ?? 0;

  const statementOf = (span: ReadableSpan) =>
    String(span.attributes["db.query.text"] ?? span.attributes["db.statement"] ?? "");
  /**
   * The statement that applies a batch, whatever its size: once, and once more each time it found a
   * dataset changed while waiting for its lock (an event on the span the batch runs in).
   */
  const isVersionWrite = (span: ReadableSpan) =>
    /UPDATE datasets d SET current_version/.test(statementOf(span));
  const appliedIn = (span: ReadableSpan) => 1 + span.events.filter((e) => e.name === STALE_EVENT).length;

  /**
   * Makes EDITS concurrent edits of one dataset, each from its own traced caller. While another
   * transaction holds the dataset, the first edits each start a transaction that waits for it and
   * the rest queue up: they go together in a batch once it is released. Returns the callers' spans.
   */
  async function editBehindLock(
    beforeEdits: () => Promise<void> = async () => {},
  ): Promise<{ traceId: string; spanId: string }[]> {
    const dataset = await createDataset(suite.caller);
    const params = dataset.params;
    await insertRows(
      suite.caller,
      params,
      Array.from({ length: EDITS }, (_, i) => ({ id: `r${i}`, input: i })),
    );
    await beforeEdits();
    spans.reset();
    const callers: { traceId: string; spanId: string }[] = [];
    let edits: Promise<unknown>[] = [];
    await suite.backend.database.db.transaction().execute(async (trx) => {
      await sql`SELECT id FROM datasets WHERE id = ${dataset.id} FOR UPDATE`.execute(trx);
      edits = Array.from({ length: EDITS }, (_, i) =>
        tracer.startActiveSpan(`caller ${i}`, { root: true }, async (span) => {
          callers[i] = span.spanContext();
          try {
            return await suite.caller.call(operations.updateDatasetRow, {
              params: { ...params, rowId: `r${i}` },
              body: { output: `edited ${i}` },
            });
          } finally {
            span.end();
          }
        }),
      );
      // The writer's first transaction waits for the lock; more start beside it only while edits
      // are queued (two, as a rule: the second takes every edit that arrived meanwhile).
      const deadline = Date.now() + 10_000;
      while ((await lockWaiters()) < 1) {
        if (Date.now() > deadline) throw new Error("no edit's transaction ever waited for the lock");
        await new Promise((r) => setTimeout(r, 10));
      }
      // Time for the other requests to cross NATS and queue behind the waiting transactions.
      await new Promise((resolve) => setTimeout(resolve, 300));
    });
    const versions = (await Promise.all(edits)).map((result) => (result as { version: number }).version);
    expect(versions.sort((a, b) => a - b)).toEqual(Array.from({ length: EDITS }, (_, i) => i + 2));
    await provider.forceFlush();
    return callers;
  }

  /** The finished spans, with what the assertions need to walk them. */
  function captured() {
    const all = spans.getFinishedSpans();
    const id = (span: ReadableSpan) => span.spanContext().spanId;
    const byId = new Map(all.map((span) => [id(span), span]));
    const descendsFrom = (span: ReadableSpan, ancestor: ReadableSpan): boolean => {
      for (let at = span.parentSpanContext?.spanId; at; at = byId.get(at)?.parentSpanContext?.spanId) {
        if (at === id(ancestor)) return true;
      }
      return false;
    };
    const sqlSpans = all.filter((span) => span.instrumentationScope.name === PG_SCOPE);
    expect(sqlSpans.length, "SQL spans (is the pg instrumentation on?)").toBeGreaterThan(0);
    const batches = all.filter((span) => span.name === BATCH_SPAN);
    // These tests are about batches of several edits: make sure there was one.
    expect(batches.some((batch) => Number(batch.attributes[BATCH_SIZE_ATTRIBUTE]) > 1)).toBe(true);
    /** One request's trace: caller → bus request → writer handler, each the child of the one before. */
    const request = ({ traceId, spanId }: { traceId: string; spanId: string }) => {
      const inTrace = all.filter((span) => span.spanContext().traceId === traceId);
      const client = inTrace.find(
        (s) => s.name === `request ${SUBJECT}` && s.parentSpanContext?.spanId === spanId,
      );
      const handler = inTrace.find(
        (s) => s.name === `process ${SUBJECT}` && s.parentSpanContext?.spanId === (client && id(client)),
      );
      expect(handler, `the writer's span in trace ${traceId}`).toBeDefined();
      return {
        handler: handler as ReadableSpan,
        sql: inTrace.filter((span) => span.instrumentationScope.name === PG_SCOPE),
        member: inTrace.filter((span) => span.name === BATCHED_EDIT_SPAN),
      };
    };
    const batchOf = (member: ReadableSpan) =>
      batches.find((b) => member.links.some((link) => link.context.spanId === id(b)));
    return { id, descendsFrom, sqlSpans, batches, request, batchOf };
  }

  it("gives each concurrent edit a complete trace, and never puts SQL in another request's trace", async () => {
    const callers = await editBehindLock();
    const { id, descendsFrom, sqlSpans, batches, request, batchOf } = captured();
    let alone = 0;
    for (const caller of callers) {
      const { handler, sql: sqlHere, member } = request(caller);
      // Whatever SQL is in this trace is this request's, under its handler.
      expect(sqlHere.every((span) => descendsFrom(span, handler))).toBe(true);
      if (member.length === 0) {
        alone++;
        expect(sqlHere.filter(isVersionWrite)).toHaveLength(appliedIn(handler));
        continue;
      }
      // Batched: a child span of the handler links to the batch, whose SQL is in the batch's trace.
      expect(member).toHaveLength(1);
      const [edit] = member as [ReadableSpan];
      expect(edit.parentSpanContext?.spanId).toBe(id(handler));
      expect(sqlHere).toEqual([]);
      const batch = batchOf(edit);
      expect(batch, "the batch span the edit links to").toBeDefined();
      expect(edit.attributes[BATCH_SIZE_ATTRIBUTE]).toBe(batch?.attributes[BATCH_SIZE_ATTRIBUTE]);
      expect(batch?.links.map((link) => link.context.spanId)).toContain(id(handler));
    }

    // Each batch span is the root of its own trace, links to each of its members, and holds its SQL.
    for (const batch of batches) {
      expect(batch.parentSpanContext).toBeUndefined();
      expect(batch.links).toHaveLength(Number(batch.attributes[BATCH_SIZE_ATTRIBUTE]));
      const traceId = batch.spanContext().traceId;
      const sqlHere = sqlSpans.filter((span) => span.spanContext().traceId === traceId);
      expect(sqlHere.every((span) => descendsFrom(span, batch))).toBe(true);
      expect(sqlHere.filter(isVersionWrite)).toHaveLength(appliedIn(batch));
    }
    const batched = batches.reduce((sum, b) => sum + Number(b.attributes[BATCH_SIZE_ATTRIBUTE]), 0);
    expect(alone + batched).toBe(EDITS);
    // No SQL anywhere else: every statement is in a request's trace or a batch's.
    const owners = new Set([
      ...callers.map((c) => c.traceId),
      ...batches.map((b) => b.spanContext().traceId),
    ]);
    expect(sqlSpans.filter((span) => !owners.has(span.spanContext().traceId))).toEqual([]);
  });

  it("applies the edits of a failed batch one by one, each in its own request's trace", async () => {
    // Once the rows exist, the first statement that writes several revisions at once (a batch's)
    // fails, once.
    const failNextBatch = async () => {
      await sql`CREATE SEQUENCE batch_failures`.execute(suite.backend.database.db);
      await sql`CREATE FUNCTION fail_batch() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          IF (SELECT count(*) FROM inserted) > 1 AND nextval('batch_failures') = 1 THEN
            RAISE EXCEPTION 'deadlock detected (by the test)' USING ERRCODE = '40P01';
          END IF;
          RETURN NULL;
        END $$`.execute(suite.backend.database.db);
      await sql`CREATE TRIGGER fail_batch AFTER INSERT ON row_revisions REFERENCING NEW TABLE AS inserted
        FOR EACH STATEMENT EXECUTE FUNCTION fail_batch()`.execute(suite.backend.database.db);
    };
    try {
      const callers = await editBehindLock(failNextBatch);
      const { descendsFrom, batches, request, batchOf } = captured();
      const failed = batches.filter((b) => b.attributes[ONE_BY_ONE_ATTRIBUTE] === true);
      expect(failed).toHaveLength(1);
      const [batch] = failed as [ReadableSpan];
      expect(batch.events.map((event) => event.name)).toContain("exception");
      let members = 0;
      for (const caller of callers) {
        const { handler, sql: sqlHere, member } = request(caller);
        expect(sqlHere.every((span) => descendsFrom(span, handler))).toBe(true);
        const [edit] = member;
        if (!edit || batchOf(edit) !== batch) continue;
        members++;
        // Applied on its own, in its request's trace, under the span that links it to the batch.
        const writes = sqlHere.filter(isVersionWrite);
        expect(writes).toHaveLength(appliedIn(edit));
        expect(writes.every((write) => descendsFrom(write, edit))).toBe(true);
      }
      expect(members).toBe(Number(batch.attributes[BATCH_SIZE_ATTRIBUTE]));
    } finally {
      await sql`DROP TRIGGER IF EXISTS fail_batch ON row_revisions`.execute(suite.backend.database.db);
    }
  });
});
