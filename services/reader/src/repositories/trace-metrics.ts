import type { MetricGrouping } from "@svc/contracts";
import type { Database } from "@svc/db";
import { type Kysely, sql } from "kysely";

/** One row of `trace_metrics`: the totals of one group's traces that started in one minute or hour. */
export interface TraceMetricRow {
  /** Start of the minute or hour, in milliseconds since the epoch. */
  timeMs: number;
  /** '' for traces without a value (and for every row of all traces). */
  groupValue: string;
  traces: number;
  errors: number;
  tokensInput: number;
  tokensOutput: number;
  costMicrocents: number;
  latency: Record<string, number>;
}

/** The rows of one project, width and grouping whose minute or hour starts in [fromMs, toMs). */
export async function listTraceMetricRows(
  db: Kysely<Database>,
  query: {
    projectId: string;
    width: "minute" | "hour";
    grouping: MetricGrouping | "all";
    fromMs: number;
    toMs: number;
  },
): Promise<TraceMetricRow[]> {
  const rows = await db
    .selectFrom("trace_metrics")
    .select([
      sql<string>`(extract(epoch from bucket_start) * 1000)::bigint::text`.as("time_ms"),
      "group_value",
      sql<string>`traces::text`.as("traces"),
      sql<string>`errors::text`.as("errors"),
      sql<string>`tokens_input::text`.as("tokens_input"),
      sql<string>`tokens_output::text`.as("tokens_output"),
      sql<string>`cost_microcents::text`.as("cost_microcents"),
      "latency",
    ])
    .where("project_id", "=", query.projectId)
    .where("width", "=", query.width)
    .where("grouping", "=", query.grouping)
    .where("bucket_start", ">=", sql<Date>`${new Date(query.fromMs).toISOString()}::timestamptz`)
    .where("bucket_start", "<", sql<Date>`${new Date(query.toMs).toISOString()}::timestamptz`)
    .where("traces", "<>", "0")
    .execute();
  return rows.map((row) => ({
    timeMs: Number(row.time_ms),
    groupValue: row.group_value,
    traces: Number(row.traces),
    errors: Number(row.errors),
    tokensInput: Number(row.tokens_input),
    tokensOutput: Number(row.tokens_output),
    costMicrocents: Number(row.cost_microcents),
    latency: row.latency as Record<string, number>,
  }));
}
