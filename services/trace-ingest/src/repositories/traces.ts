import type { Cell } from "@svc/contracts";
import { type Database, prepared, type UnnestType } from "@svc/db";
import { type Kysely, sql } from "kysely";
import type { TraceSummary } from "../domain/summary";
import { TRACE_FACT_COLUMNS, upsertRows } from "./db";

export interface TraceSummaryRecord extends TraceSummary {
  traceId: string;
  input: Cell;
  output: Cell;
}

/**
 * The first of the two keys of the advisory locks `lockTraces` takes (the second is a hash of the
 * trace): locks of two keys are apart from those of one (migrations, the auth bootstrap), and this
 * one keeps the traces' apart from any other pair.
 */
const TRACE_LOCKS = 7_340_032;

/**
 * Takes a lock on each trace until the transaction ends, so that two requests carrying spans of one
 * trace summarise it one after the other; each statement after it reads what the other committed.
 * The locks are advisory, on a hash of project and trace: a lock writes nothing, where locking a row
 * would first have to write one for a new trace (and then write it again with its summary, in every
 * index). They are taken in the order of their hashes, the same in every request, so two requests
 * never wait on each other in a circle; two traces of the same hash only wait for each other.
 */
export async function lockTraces(
  db: Kysely<Database>,
  projectId: string,
  traceIds: readonly string[],
): Promise<void> {
  await sql`${prepared}
    SELECT pg_advisory_xact_lock(${sql.lit(TRACE_LOCKS)}, key)
    FROM (
      SELECT DISTINCT hashtext(${projectId} || '/' || trace_id) AS key
      FROM unnest(${traceIds}::text[]) AS t(trace_id)
      ORDER BY key
    ) AS ordered`.execute(db);
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

/** Writes the summaries of traces locked by `lockTraces`, replacing those they had. */
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
