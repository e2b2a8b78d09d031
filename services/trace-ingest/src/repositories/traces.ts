import type { Cell } from "@svc/contracts";
import { type Database, jsonb } from "@svc/db";
import { type Kysely, sql } from "kysely";
import type { TraceSummary } from "../domain/summary";
import { chunks, replacingAllBut, traceFactValues } from "./db";

const TRACE_KEY = ["project_id", "trace_id"] as const;

export interface TraceSummaryRecord extends TraceSummary {
  traceId: string;
  input: Cell;
  output: Cell;
}

/**
 * Takes the row lock of each trace (creating an empty row for a new one) until the transaction ends,
 * so that two requests carrying spans of one trace summarise it one after the other. Locks are taken
 * in trace-id order, the same in every request, so two requests never wait on each other in a circle.
 */
export async function lockTraces(
  db: Kysely<Database>,
  projectId: string,
  traceIds: readonly string[],
): Promise<void> {
  for (const batch of chunks([...traceIds].sort(), 1000)) {
    await db
      .insertInto("traces")
      .values(
        batch.map((traceId) => ({
          project_id: projectId,
          trace_id: traceId,
          span_count: 0,
          error_count: 0,
          start_ns: 0,
          end_ns: 0,
          duration_ns: 0,
          tags: jsonb([]),
          models: jsonb([]),
          tokens_input: 0,
          tokens_output: 0,
          tokens_total: 0,
          cost_total_microcents: 0,
          input: jsonb(null),
          output: jsonb(null),
        })),
      )
      .onConflict((oc) => oc.columns(["project_id", "trace_id"]).doUpdateSet({ updated_at: sql`now()` }))
      .execute();
  }
}

/** Replaces the summaries of traces locked by `lockTraces`. */
export async function updateTraceSummaries(
  db: Kysely<Database>,
  projectId: string,
  summaries: readonly TraceSummaryRecord[],
): Promise<void> {
  // 19 parameters a trace.
  for (const batch of chunks(summaries, 1000)) {
    const rows = batch.map((summary) => ({
      project_id: projectId,
      trace_id: summary.traceId,
      span_count: summary.spanCount,
      error_count: summary.errorCount,
      start_ns: summary.startNs,
      end_ns: summary.endNs,
      duration_ns: summary.durationNs,
      root_span_id: summary.rootSpanId,
      root_span_name: summary.rootSpanName,
      ...traceFactValues(summary),
      tokens_total: summary.tokensTotal,
      cost_total_microcents: summary.costTotalMicrocents,
      input: jsonb(summary.input),
      output: jsonb(summary.output),
    }));
    await db
      .insertInto("traces")
      .values(rows)
      .onConflict((oc) =>
        oc.columns(TRACE_KEY).doUpdateSet({ ...replacingAllBut(TRACE_KEY, rows), updated_at: sql`now()` }),
      )
      .execute();
  }
}
