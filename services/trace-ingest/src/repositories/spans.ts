import type { Cell } from "@svc/contracts";
import { type Database, prepared, traceFactsOf, type UnnestType, unnestRows } from "@svc/db";
import { type Kysely, sql } from "kysely";
import type { SpanFacts } from "../domain/gen-ai";
import type { ReceivedSpan } from "../domain/otlp";
import type { SpanOutline } from "../domain/summary";
import { TRACE_FACT_COLUMNS, upsertRows } from "./db";

/**
 * A span as received, with what it tells of its trace and what it cost: three parts rather than one
 * object spread from them, which V8 built at some 50 µs a span (a batch of spans spent more on it
 * than on its SQL).
 */
export interface StoredSpan {
  span: ReceivedSpan;
  facts: SpanFacts;
  costMicrocents: number | null;
}

/** What a span's row holds but its key's project, with the type each column travels as. */
export const SPAN_COLUMNS = {
  trace_id: "text",
  span_id: "text",
  parent_span_id: "text",
  name: "text",
  kind: "int",
  start_ns: "bigint",
  end_ns: "bigint",
  status_code: "int",
  status_message: "text",
  attributes: "jsonb",
  resource_attributes: "jsonb",
  scope: "jsonb",
  events: "jsonb",
  links: "jsonb",
  ...TRACE_FACT_COLUMNS,
  cost_microcents: "bigint",
  input: "jsonb",
  output: "jsonb",
} as const satisfies Record<string, UnnestType>;
export type SpanColumn = keyof typeof SPAN_COLUMNS;

/** A span's row but its project, as `upsertSpans` writes it. */
export function spanRowOf({ span, facts, costMicrocents }: StoredSpan): Record<SpanColumn, unknown> {
  return {
    trace_id: span.traceId,
    span_id: span.spanId,
    parent_span_id: span.parentSpanId,
    name: span.name,
    kind: span.kind,
    start_ns: span.startNs,
    end_ns: span.endNs,
    status_code: span.statusCode,
    status_message: span.statusMessage,
    attributes: span.attributes,
    resource_attributes: span.resourceAttributes,
    scope: span.scope,
    events: span.events,
    links: span.links,
    session_id: facts.sessionId,
    user_id: facts.userId,
    tags: facts.tags,
    models: facts.models,
    tokens_input: facts.tokensInput,
    tokens_output: facts.tokensOutput,
    cost_microcents: costMicrocents,
    input: facts.input,
    output: facts.output,
  };
}

/** Writes spans, replacing any copy of the same (project, trace, span) received before. */
export async function upsertSpans(
  db: Kysely<Database>,
  projectId: string,
  spans: readonly StoredSpan[],
): Promise<void> {
  await upsertRows(
    db,
    { table: "spans", key: ["trace_id", "span_id"], touched: "received_at" },
    SPAN_COLUMNS,
    projectId,
    spans.map(spanRowOf),
  );
}

/** Every stored span of the given traces, without its attributes: what a summary is made of. */
export async function listSpanOutlines(
  db: Kysely<Database>,
  projectId: string,
  traceIds: readonly string[],
): Promise<Map<string, SpanOutline[]>> {
  const { rows } = await sql<{
    trace_id: string;
    span_id: string;
    parent_span_id: string | null;
    name: string;
    start_ns: string;
    end_ns: string;
    status_code: number;
    session_id: string | null;
    user_id: string | null;
    tags: string[];
    models: string[];
    tokens_input: string;
    tokens_output: string;
    cost_microcents: string | null;
  }>`${prepared}
    SELECT trace_id, span_id, parent_span_id, name, start_ns::text AS start_ns, end_ns::text AS end_ns,
           status_code, session_id, user_id, tags, models, tokens_input::text AS tokens_input,
           tokens_output::text AS tokens_output, cost_microcents::text AS cost_microcents
    FROM spans
    WHERE project_id = ${projectId} AND trace_id = ANY(${traceIds}::text[])`.execute(db);
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
  const { rows } = await sql<{ trace_id: string; input: Cell | null; output: Cell | null }>`${prepared}
    SELECT t.trace_id, t.input, t.output
    FROM ${unnestRows("k", { traceId: "text", spanId: "text" }, spans, { sizeHidden: true })}
    JOIN spans AS t ON t.project_id = ${projectId} AND t.trace_id = k."traceId" AND t.span_id = k."spanId"`.execute(
    db,
  );
  return new Map(
    rows.map((row) => [
      row.trace_id,
      { input: (row.input ?? null) as Cell, output: (row.output ?? null) as Cell },
    ]),
  );
}
