import type { Cell } from "@svc/contracts";
import { type Kysely, sql } from "kysely";
import { prepared } from "./prepared";
import type { Database } from "./schema";
import type { TraceMetricDelta, TraceMetricFacts } from "./trace-metric-deltas";
import { TRACE_FACT_COLUMNS, upsertRows } from "./trace-rows";
import type { SpanOutline, TraceSummary } from "./trace-summary";
import { traceFactsOf } from "./traces";
import { type UnnestType, unnestRows } from "./unnest";

/*
 * The statements of folding traces (decision 0051): the ingest marks the traces whose spans it
 * stored; a fold takes marks, recomputes those traces' summaries from their spans, moves their
 * metrics from the old summaries to the new ones, and deletes the marks, in one transaction.
 */

/** One trace waiting to be folded. */
export interface TraceFold {
  projectId: string;
  traceId: string;
}

/**
 * Marks traces of a project as waiting to be folded, in the transaction that stores their spans. A
 * trace already marked has its mark touched rather than left alone: that waits for a fold holding
 * the mark (it read the spans before these were committed) to delete it, and then writes a new one,
 * so spans are never left out of every fold. Ids in order, so two requests lock shared marks in the
 * same order.
 */
export async function markTraceFolds(
  db: Kysely<Database>,
  projectId: string,
  traceIds: readonly string[],
): Promise<void> {
  await sql`${prepared}
    INSERT INTO trace_folds (project_id, trace_id)
    SELECT ${projectId}, trace_id FROM unnest(${traceIds}::text[]) AS t(trace_id)
    ON CONFLICT (project_id, trace_id) DO UPDATE SET marked_at = now()`.execute(db);
}

/**
 * Takes up to `limit` marks of any project until the transaction ends, passing over those another
 * transaction holds (a fold elsewhere, or an ingest still writing): several replicas fold apart.
 */
export async function claimTraceFolds(db: Kysely<Database>, limit: number): Promise<TraceFold[]> {
  const { rows } = await sql<{ project_id: string; trace_id: string }>`${prepared}
    SELECT project_id, trace_id FROM trace_folds
    ORDER BY project_id, trace_id
    LIMIT ${limit}
    FOR UPDATE SKIP LOCKED`.execute(db);
  return rows.map((row) => ({ projectId: row.project_id, traceId: row.trace_id }));
}

/**
 * The database's clock now, as exact text (a Date would round it to milliseconds), when the project
 * has traces waiting to be folded (one index probe), or undefined when it has none: a read folds the
 * marks made until then, not those that come after it.
 */
export async function findOptionalFoldStart(
  db: Kysely<Database>,
  projectId: string,
): Promise<string | undefined> {
  const { rows } = await sql<{ now: string; waiting: boolean }>`${prepared}
    SELECT to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS now,
      EXISTS (SELECT FROM trace_folds WHERE project_id = ${projectId}) AS waiting`.execute(db);
  const row = rows[0];
  return row?.waiting ? row.now : undefined;
}

/**
 * Takes up to `limit` marks of one project until the transaction ends, waiting for those another
 * transaction holds: a read that folds first must not pass over a trace that a fold elsewhere has
 * not committed yet. A mark that fold deleted is then passed over. In trace order, so that two such
 * reads never wait on each other in a circle.
 */
export async function claimProjectTraceFolds(
  db: Kysely<Database>,
  projectId: string,
  { markedBy, limit }: { markedBy: string; limit: number },
): Promise<string[]> {
  const { rows } = await sql<{ trace_id: string }>`${prepared}
    SELECT trace_id FROM trace_folds
    WHERE project_id = ${projectId} AND marked_at <= ${markedBy}::timestamptz
    ORDER BY trace_id
    LIMIT ${limit}
    FOR UPDATE`.execute(db);
  return rows.map((row) => row.trace_id);
}

/** Deletes the marks of folded traces. */
export async function deleteTraceFolds(
  db: Kysely<Database>,
  projectId: string,
  traceIds: readonly string[],
): Promise<void> {
  await sql`${prepared}
    DELETE FROM trace_folds
    WHERE project_id = ${projectId} AND trace_id = ANY(${traceIds}::text[])`.execute(db);
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

/**
 * What the metrics hold of each trace now: its stored summary; a trace that has none yet is not in
 * the map.
 */
export async function listTraceMetricFacts(
  db: Kysely<Database>,
  projectId: string,
  traceIds: readonly string[],
): Promise<Map<string, TraceMetricFacts>> {
  const { rows } = await sql<{
    trace_id: string;
    error_count: number;
    start_ns: string;
    duration_ns: string;
    root_span_name: string | null;
    models: string[];
    tags: string[];
    tokens_input: string;
    tokens_output: string;
    cost_total_microcents: string;
  }>`${prepared}
    SELECT trace_id, error_count, start_ns::text AS start_ns, duration_ns::text AS duration_ns,
           root_span_name, models, tags, tokens_input::text AS tokens_input,
           tokens_output::text AS tokens_output, cost_total_microcents::text AS cost_total_microcents
    FROM traces
    WHERE project_id = ${projectId} AND trace_id = ANY(${traceIds}::text[])`.execute(db);
  return new Map(
    rows.map((row) => [
      row.trace_id,
      {
        startNs: row.start_ns,
        durationNs: row.duration_ns,
        failed: row.error_count > 0,
        rootSpanName: row.root_span_name,
        models: row.models,
        tags: row.tags,
        tokensInput: Number(row.tokens_input),
        tokensOutput: Number(row.tokens_output),
        costMicrocents: Number(row.cost_total_microcents),
      },
    ]),
  );
}

export interface TraceSummaryRecord extends TraceSummary {
  traceId: string;
  input: Cell;
  output: Cell;
}

/** A trace's row but its project, with the type each column travels as. */
const TRACE_COLUMNS = {
  trace_id: "text",
  span_count: "int",
  error_count: "int",
  start_ns: "bigint",
  end_ns: "bigint",
  duration_ns: "bigint",
  root_span_id: "text",
  root_span_name: "text",
  ...TRACE_FACT_COLUMNS,
  tokens_total: "bigint",
  cost_total_microcents: "bigint",
  input: "jsonb",
  output: "jsonb",
} as const satisfies Record<string, UnnestType>;
type TraceColumn = keyof typeof TRACE_COLUMNS;

/** Writes the summaries of traces whose marks the transaction holds, replacing those they had. */
export async function updateTraceSummaries(
  db: Kysely<Database>,
  projectId: string,
  summaries: readonly TraceSummaryRecord[],
): Promise<void> {
  const rows = summaries.map(
    (summary): Record<TraceColumn, unknown> => ({
      trace_id: summary.traceId,
      span_count: summary.spanCount,
      error_count: summary.errorCount,
      start_ns: summary.startNs,
      end_ns: summary.endNs,
      duration_ns: summary.durationNs,
      root_span_id: summary.rootSpanId,
      root_span_name: summary.rootSpanName,
      session_id: summary.sessionId,
      user_id: summary.userId,
      tags: summary.tags,
      models: summary.models,
      tokens_input: summary.tokensInput,
      tokens_output: summary.tokensOutput,
      tokens_total: summary.tokensTotal,
      cost_total_microcents: summary.costTotalMicrocents,
      input: summary.input,
      output: summary.output,
    }),
  );
  await upsertRows(
    db,
    { table: "traces", key: ["trace_id"], touched: "updated_at" },
    TRACE_COLUMNS,
    projectId,
    rows,
  );
}

/** A delta's fields but its project, with the type each travels as (the bucket's start as ISO text). */
const METRIC_COLUMNS = {
  width: "text",
  grouping: "text",
  bucketStart: "text",
  groupValue: "text",
  traces: "bigint",
  errors: "bigint",
  tokensInput: "bigint",
  tokensOutput: "bigint",
  costMicrocents: "bigint",
  latency: "jsonb",
} as const satisfies Record<string, UnnestType>;

/**
 * Adds the deltas to their rows, creating the rows that do not exist. The deltas come in key order,
 * so two folds lock the rows they share in the same order. A histogram bucket that falls to 0 is
 * dropped from the row.
 */
export async function addTraceMetricDeltas(
  db: Kysely<Database>,
  projectId: string,
  deltas: readonly TraceMetricDelta[],
): Promise<void> {
  if (deltas.length === 0) return;
  const rows = deltas.map((delta) => ({
    width: delta.width,
    grouping: delta.grouping,
    bucketStart: delta.bucketStart,
    groupValue: delta.groupValue,
    traces: delta.traces,
    errors: delta.errors,
    tokensInput: delta.tokensInput,
    tokensOutput: delta.tokensOutput,
    costMicrocents: delta.costMicrocents,
    latency: delta.latency,
  }));
  await sql`${prepared}
    INSERT INTO trace_metrics (project_id, width, grouping, bucket_start, group_value, traces, errors,
                               tokens_input, tokens_output, cost_microcents, latency)
    SELECT ${projectId}, s.width, s.grouping, s."bucketStart"::timestamptz, s."groupValue", s.traces, s.errors,
           s."tokensInput", s."tokensOutput", s."costMicrocents", s.latency
    FROM ${unnestRows("s", METRIC_COLUMNS, rows, { sizeHidden: true })}
    ON CONFLICT (project_id, width, grouping, bucket_start, group_value) DO UPDATE SET
      traces = trace_metrics.traces + excluded.traces,
      errors = trace_metrics.errors + excluded.errors,
      tokens_input = trace_metrics.tokens_input + excluded.tokens_input,
      tokens_output = trace_metrics.tokens_output + excluded.tokens_output,
      cost_microcents = trace_metrics.cost_microcents + excluded.cost_microcents,
      latency = (
        SELECT coalesce(jsonb_object_agg(key, total), '{}'::jsonb)
        FROM (
          SELECT key, sum(value::bigint) AS total
          FROM (
            SELECT * FROM jsonb_each_text(trace_metrics.latency)
            UNION ALL SELECT * FROM jsonb_each_text(excluded.latency)
          ) AS counts(key, value)
          GROUP BY key
          HAVING sum(value::bigint) <> 0
        ) AS merged
      )`.execute(db);
}
