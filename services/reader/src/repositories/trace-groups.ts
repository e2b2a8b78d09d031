import type { TraceGroupSortField } from "@svc/contracts";
import type { Database } from "@svc/db";
import { type Kysely, type RawBuilder, sql } from "kysely";

/** The totals of one session's or user's traces, its times as nanoseconds since the epoch (text). */
export interface TraceGroupRecord {
  key: string;
  traces: number;
  errors: number;
  tokensInput: number;
  tokensOutput: number;
  tokensTotal: number;
  costMicrocents: number;
  firstNs: string;
  lastNs: string;
  /** The exact value the list was sorted by, as text, for the next page's cursor. */
  sortValue: string;
}

export interface TraceGroupQuery {
  projectId: string;
  by: "session_id" | "user_id";
  /** Nanoseconds since the epoch, as text: traces that started in [fromNs, toNs). */
  fromNs?: string | undefined;
  toNs?: string | undefined;
  sortBy: TraceGroupSortField;
  sortDirection: "asc" | "desc";
  after?: { value: string; key: string } | undefined;
  limit: number;
}

/** What each sort orders by: an aggregate over the group's traces. */
const sortExpression: Record<TraceGroupSortField, RawBuilder<string>> = {
  lastTime: sql`max(start_ns)`,
  firstTime: sql`min(start_ns)`,
  traces: sql`count(*)`,
  errors: sql`count(*) FILTER (WHERE error_count > 0)`,
  tokensTotal: sql`sum(tokens_total)`,
  costMicrocents: sql`sum(cost_total_microcents)`,
};

/**
 * The project's traces grouped by session or user, with their totals, in sort order (ties by the
 * session or user id). Traces without one are left out.
 */
export async function listTraceGroups(
  db: Kysely<Database>,
  query: TraceGroupQuery,
): Promise<TraceGroupRecord[]> {
  const key = sql.ref(query.by);
  const sortBy = sortExpression[query.sortBy];
  const direction = sql.raw(query.sortDirection);
  const after = query.after;
  const { rows } = await sql<{
    key: string;
    traces: string;
    errors: string;
    tokens_input: string;
    tokens_output: string;
    tokens_total: string;
    cost: string;
    first_ns: string;
    last_ns: string;
    sort_value: string;
  }>`
    SELECT ${key} AS key,
           count(*)::text AS traces,
           (count(*) FILTER (WHERE error_count > 0))::text AS errors,
           sum(tokens_input)::text AS tokens_input,
           sum(tokens_output)::text AS tokens_output,
           sum(tokens_total)::text AS tokens_total,
           sum(cost_total_microcents)::text AS cost,
           min(start_ns)::text AS first_ns,
           max(start_ns)::text AS last_ns,
           (${sortBy})::text AS sort_value
    FROM traces
    WHERE project_id = ${query.projectId}
      AND ${key} IS NOT NULL
      ${query.fromNs === undefined ? sql`` : sql`AND start_ns >= ${query.fromNs}::bigint`}
      ${query.toNs === undefined ? sql`` : sql`AND start_ns < ${query.toNs}::bigint`}
    GROUP BY ${key}
    ${
      after === undefined
        ? sql``
        : sql`HAVING ((${sortBy})::numeric, ${key}) ${sql.raw(query.sortDirection === "asc" ? ">" : "<")} (${after.value}::numeric, ${after.key})`
    }
    ORDER BY ${sortBy} ${direction}, ${key} ${direction}
    LIMIT ${query.limit}
  `.execute(db);
  return rows.map((row) => ({
    key: row.key,
    traces: Number(row.traces),
    errors: Number(row.errors),
    tokensInput: Number(row.tokens_input),
    tokensOutput: Number(row.tokens_output),
    tokensTotal: Number(row.tokens_total),
    costMicrocents: Number(row.cost),
    firstNs: row.first_ns,
    lastNs: row.last_ns,
    sortValue: row.sort_value,
  }));
}
