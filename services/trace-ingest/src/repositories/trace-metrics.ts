import { type Database, prepared, type UnnestType, unnestRows } from "@svc/db";
import { type Kysely, sql } from "kysely";
import type { TraceMetricDelta, TraceMetricFacts } from "../domain/metrics";

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

/**
 * Adds the deltas to their rows, creating the rows that do not exist. The deltas come in key order,
 * so two requests lock the rows they share in the same order. A histogram bucket that falls to 0 is
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
