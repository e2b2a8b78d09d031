import type { Cell } from "@svc/contracts";
import { type Database, jsonb, traceFactsOf } from "@svc/db";
import { type Kysely, sql } from "kysely";
import type { SpanFacts } from "../domain/gen-ai";
import type { ReceivedSpan } from "../domain/otlp";
import type { SpanOutline } from "../domain/summary";
import { chunks, replacingAllBut, traceFactValues } from "./db";

export type StoredSpan = ReceivedSpan & SpanFacts;

const SPAN_KEY = ["project_id", "trace_id", "span_id"] as const;

/** Writes spans, replacing any copy of the same (project, trace, span) received before. */
export async function upsertSpans(
  db: Kysely<Database>,
  projectId: string,
  spans: readonly StoredSpan[],
): Promise<void> {
  // 25 parameters a span: 500 spans stay well inside PostgreSQL's limit for one statement.
  for (const batch of chunks(spans, 500)) {
    const rows = batch.map((span) => ({
      project_id: projectId,
      trace_id: span.traceId,
      span_id: span.spanId,
      parent_span_id: span.parentSpanId,
      name: span.name,
      kind: span.kind,
      start_ns: span.startNs,
      end_ns: span.endNs,
      status_code: span.statusCode,
      status_message: span.statusMessage,
      attributes: jsonb(span.attributes),
      resource_attributes: jsonb(span.resourceAttributes),
      scope: jsonb(span.scope),
      events: jsonb(span.events),
      links: jsonb(span.links),
      ...traceFactValues(span),
      cost_microcents: span.costMicrocents,
      input: jsonb(span.input),
      output: jsonb(span.output),
    }));
    await db
      .insertInto("spans")
      .values(rows)
      .onConflict((oc) =>
        oc.columns(SPAN_KEY).doUpdateSet({ ...replacingAllBut(SPAN_KEY, rows), received_at: sql`now()` }),
      )
      .execute();
  }
}

/** Every stored span of the given traces, without its attributes: what a summary is made of. */
export async function listSpanOutlines(
  db: Kysely<Database>,
  projectId: string,
  traceIds: readonly string[],
): Promise<Map<string, SpanOutline[]>> {
  const rows = await db
    .selectFrom("spans")
    .select([
      "trace_id",
      "span_id",
      "parent_span_id",
      "name",
      sql<string>`start_ns::text`.as("start_ns"),
      sql<string>`end_ns::text`.as("end_ns"),
      "status_code",
      "session_id",
      "user_id",
      "tags",
      "models",
      sql<string>`tokens_input::text`.as("tokens_input"),
      sql<string>`tokens_output::text`.as("tokens_output"),
      sql<string | null>`cost_microcents::text`.as("cost_microcents"),
    ])
    .where("project_id", "=", projectId)
    .where("trace_id", "in", [...traceIds])
    .execute();
  const byTrace = new Map<string, SpanOutline[]>();
  for (const row of rows) {
    const outlines = byTrace.get(row.trace_id) ?? [];
    outlines.push({
      spanId: row.span_id,
      parentSpanId: row.parent_span_id,
      name: row.name,
      startNs: row.start_ns,
      endNs: row.end_ns,
      statusCode: row.status_code,
      ...traceFactsOf(row),
      costMicrocents: row.cost_microcents === null ? null : Number(row.cost_microcents),
    });
    byTrace.set(row.trace_id, outlines);
  }
  return byTrace;
}

/** The input and output messages of some spans, keyed by trace id. */
export async function listSpanMessages(
  db: Kysely<Database>,
  projectId: string,
  spans: readonly { traceId: string; spanId: string }[],
): Promise<Map<string, { input: Cell; output: Cell }>> {
  if (spans.length === 0) return new Map();
  const rows = await db
    .selectFrom("spans")
    .select(["trace_id", "input", "output"])
    .where("project_id", "=", projectId)
    .where(
      sql<boolean>`(trace_id, span_id) IN (${sql.join(spans.map((span) => sql`(${span.traceId}, ${span.spanId})`))})`,
    )
    .execute();
  return new Map(
    rows.map((row) => [
      row.trace_id,
      { input: (row.input ?? null) as Cell, output: (row.output ?? null) as Cell },
    ]),
  );
}
