import { type Database, jsonb } from "@svc/db";
import { type Kysely, sql } from "kysely";
import type { TraceMetricDelta, TraceMetricFacts } from "../domain/metrics";
import { chunks } from "./db";

/**
 * What the metrics hold of each trace now: its stored summary, or null for a trace that has none yet
 * (`lockTraces` just made its empty row).
 */
export async function listTraceMetricFacts(
  db: Kysely<Database>,
  projectId: string,
  traceIds: readonly string[],
): Promise<Map<string, TraceMetricFacts | null>> {
  const rows = await db
    .selectFrom("traces")
    .select([
      "trace_id",
      "span_count",
      "error_count",
      sql<string>`start_ns::text`.as("start_ns"),
      sql<string>`duration_ns::text`.as("duration_ns"),
      "root_span_name",
      "models",
      "tags",
      sql<string>`tokens_input::text`.as("tokens_input"),
      sql<string>`tokens_output::text`.as("tokens_output"),
      sql<string>`cost_total_microcents::text`.as("cost_total_microcents"),
    ])
    .where("project_id", "=", projectId)
    .where("trace_id", "in", [...traceIds])
    .execute();
  return new Map(
    rows.map((row) => [
      row.trace_id,
      row.span_count === 0
        ? null
        : {
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
  // 11 parameters a row.
  for (const batch of chunks(deltas, 2000)) {
    await db
      .insertInto("trace_metrics")
      .values(
        batch.map((delta) => ({
          project_id: projectId,
          width: delta.width,
          grouping: delta.grouping,
          bucket_start: delta.bucketStart,
          group_value: delta.groupValue,
          traces: delta.traces,
          errors: delta.errors,
          tokens_input: delta.tokensInput,
          tokens_output: delta.tokensOutput,
          cost_microcents: delta.costMicrocents,
          latency: jsonb(delta.latency),
        })),
      )
      .onConflict((oc) =>
        oc.columns(["project_id", "width", "grouping", "bucket_start", "group_value"]).doUpdateSet({
          traces: sql`trace_metrics.traces + excluded.traces`,
          errors: sql`trace_metrics.errors + excluded.errors`,
          tokens_input: sql`trace_metrics.tokens_input + excluded.tokens_input`,
          tokens_output: sql`trace_metrics.tokens_output + excluded.tokens_output`,
          cost_microcents: sql`trace_metrics.cost_microcents + excluded.cost_microcents`,
          latency: sql`(
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
          )`,
        }),
      )
      .execute();
  }
}
