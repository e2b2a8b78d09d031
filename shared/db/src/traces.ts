import { type Trace, type TraceFilter, type TraceSortField, unixNanosToIso } from "@svc/contracts";
import { type Kysely, type RawBuilder, sql } from "kysely";
import type { Database } from "./schema";

/*
 * Reading trace summaries: the reader lists them and the dataset-writer imports them, with the same
 * filters, so the query lives here once. Only trace-ingest writes these tables.
 */

/** The column behind each filterable or sortable field of a trace. */
const columnOf = {
  traceId: "trace_id",
  startTime: "start_ns",
  endTime: "end_ns",
  durationNs: "duration_ns",
  spanCount: "span_count",
  errorCount: "error_count",
  tokensInput: "tokens_input",
  tokensOutput: "tokens_output",
  tokensTotal: "tokens_total",
  costTotalMicrocents: "cost_total_microcents",
  rootSpanName: "root_span_name",
  sessionId: "session_id",
  userId: "user_id",
  tags: "tags",
  models: "models",
} as const satisfies Record<Exclude<TraceFilter["field"], "text"> | TraceSortField, string>;

/**
 * The text `text` filters search: a trace's input and output messages as JSON text. Migration 0022
 * indexes exactly this expression with pg_trgm, so a search of 3 characters or more reads the index.
 */
const searchedText = sql`(coalesce(t.input::text, '') || ' ' || coalesce(t.output::text, ''))`;

/** A LIKE pattern matching `text` anywhere, its own % _ and \\ taken literally. */
const containing = (text: string): string => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

const comparison = { eq: "=", neq: "<>", gt: ">", gte: ">=", lt: "<", lte: "<=" } as const;

/** One filter as SQL on the `traces` table; values are always parameters, never spliced in. */
function conditionOf(filter: TraceFilter): RawBuilder<boolean> {
  if (filter.field === "text") return sql<boolean>`${searchedText} ILIKE ${containing(filter.value)}`;
  const column = sql.ref(`t.${columnOf[filter.field]}`);
  switch (filter.op) {
    case "in":
      return sql<boolean>`${column} = ANY(${filter.value}::text[])`;
    case "containsAny":
      return sql<boolean>`${column} ?| ${filter.value}::text[]`;
    case "contains":
      return filter.field === "tags" || filter.field === "models"
        ? sql<boolean>`${column} @> ${JSON.stringify([filter.value])}::jsonb`
        : sql<boolean>`strpos(lower(${column}), lower(${filter.value})) > 0`;
    case "neq":
      // A trace without a session is also "not this session".
      return sql<boolean>`${column} IS DISTINCT FROM ${filter.value}`;
    default: {
      // Times and durations arrive as strings of digits: nanoseconds overflow a JSON number.
      const nanos =
        filter.field === "startTime" || filter.field === "endTime" || filter.field === "durationNs";
      const value = nanos ? sql`${filter.value}::bigint` : sql`${filter.value}`;
      return sql<boolean>`${column} ${sql.raw(comparison[filter.op])} ${value}`;
    }
  }
}

/** What a span and its trace's summary both record, in columns of the same names (`TraceFactColumns`). */
export type TraceFacts = Pick<
  Trace,
  "sessionId" | "userId" | "tags" | "models" | "tokensInput" | "tokensOutput"
>;

/** The trace facts of a span's or a trace's row, its token counts selected as text (they are bigint). */
export function traceFactsOf(row: {
  session_id: string | null;
  user_id: string | null;
  tags: string[];
  models: string[];
  tokens_input: string;
  tokens_output: string;
}): TraceFacts {
  return {
    sessionId: row.session_id,
    userId: row.user_id,
    tags: row.tags,
    models: row.models,
    tokensInput: Number(row.tokens_input),
    tokensOutput: Number(row.tokens_output),
  };
}

export interface TraceRecord extends Trace {
  /** The exact value the list was sorted by, as text, for the next page's cursor. */
  sortValue: string;
}

export interface TraceQuery {
  projectId: string;
  filters?: readonly TraceFilter[];
  traceIds?: readonly string[];
  sortBy?: TraceSortField;
  sortDirection?: "asc" | "desc";
  /** The sort value and trace id of the last trace of the previous page. */
  after?: { value: string; traceId: string } | undefined;
  limit?: number;
}

/** The conditions of a trace query as one SQL condition on `traces as t`. */
function whereOf(query: Pick<TraceQuery, "filters">): RawBuilder<boolean> | undefined {
  const filters = query.filters ?? [];
  return filters.length === 0 ? undefined : sql<boolean>`${sql.join(filters.map(conditionOf), sql` AND `)}`;
}

/**
 * How many traces of the project match the filters, exactly. When the metrics the ingest keeps can
 * tell (`metricCountOf`), it adds up their rows (one an hour, read from one index) rather than
 * counting every trace: a filter of one model and errors over a million traces was a scan of the
 * million.
 */
export async function countTraceRecords(
  db: Kysely<Database>,
  query: Pick<TraceQuery, "projectId" | "filters">,
): Promise<number> {
  const fromMetrics = metricCountOf(query.filters ?? []);
  if (fromMetrics !== undefined) {
    const { from, to } = fromMetrics;
    const { total } = await db
      .selectFrom("trace_metrics")
      .select(sql<string>`coalesce(sum(${sql.ref(fromMetrics.counted)}), 0)::text`.as("total"))
      .where("project_id", "=", query.projectId)
      .where("width", "=", fromMetrics.width)
      .where("grouping", "=", fromMetrics.grouping)
      .where("group_value", "=", fromMetrics.groupValue)
      .$if(from !== undefined, (qb) =>
        qb.where("bucket_start", ">=", sql<Date>`${unixNanosToIso(String(from))}::timestamptz`),
      )
      .$if(to !== undefined, (qb) =>
        qb.where("bucket_start", "<", sql<Date>`${unixNanosToIso(String(to))}::timestamptz`),
      )
      .executeTakeFirstOrThrow();
    return Number(total);
  }
  const { count } = await db
    .selectFrom("traces as t")
    .select(sql<string>`count(*)::text`.as("count"))
    .where("t.project_id", "=", query.projectId)
    .$if(whereOf(query) !== undefined, (qb) => qb.where(whereOf(query) as RawBuilder<boolean>))
    .executeTakeFirstOrThrow();
  return Number(count);
}

/** Which rows of `trace_metrics` add up to a count of traces, and which of their totals. */
interface MetricCount {
  width: "minute" | "hour";
  grouping: "all" | "model" | "tag" | "rootSpanName";
  groupValue: string;
  counted: "traces" | "errors";
  from?: bigint;
  to?: bigint;
}

const MINUTE_NS = 60_000_000_000n;
const HOUR_NS = 60n * MINUTE_NS;

/**
 * The metrics rows that count the traces these filters keep, when there are such rows (see
 * docs/decisions/0040-trace-metrics.md): at most one model, tag or root span name (the metrics count
 * a trace once in each of its models and tags, and under its root span's name), with errors or not,
 * started from and before instants on whole hours (hour rows) or minutes (minute rows). Undefined
 * for any other filter, or two of a kind.
 */
function metricCountOf(filters: readonly TraceFilter[]): MetricCount | undefined {
  const count: MetricCount = { width: "hour", grouping: "all", groupValue: "", counted: "traces" };
  for (const filter of filters) {
    const grouping =
      filter.field === "models" && filter.op === "contains"
        ? "model"
        : filter.field === "tags" && filter.op === "contains"
          ? "tag"
          : filter.field === "rootSpanName" && filter.op === "eq"
            ? "rootSpanName"
            : undefined;
    // '' is the group of the traces that have none, not of those that have an empty one.
    if (grouping !== undefined && count.grouping === "all" && filter.value !== "") {
      count.grouping = grouping;
      count.groupValue = filter.value as string;
    } else if (filter.field === "errorCount" && isAnyError(filter) && count.counted === "traces") {
      count.counted = "errors";
    } else if (filter.field === "startTime" && filter.op === "gte" && count.from === undefined) {
      count.from = BigInt(filter.value);
    } else if (filter.field === "startTime" && filter.op === "lt" && count.to === undefined) {
      count.to = BigInt(filter.value);
    } else {
      return undefined;
    }
  }
  const bounds = [count.from, count.to].filter((bound) => bound !== undefined);
  if (bounds.every((bound) => bound % HOUR_NS === 0n)) return count;
  if (bounds.every((bound) => bound % MINUTE_NS === 0n)) return { ...count, width: "minute" };
  return undefined;
}

/** `errorCount > 0` or `errorCount >= 1`: the traces the metrics count as errors. */
const isAnyError = (filter: TraceFilter): boolean =>
  (filter.op === "gt" && filter.value === 0) || (filter.op === "gte" && filter.value === 1);

/** Trace summaries of one project, filtered, in sort order (ties by trace id). */
export async function listTraceRecords(db: Kysely<Database>, query: TraceQuery): Promise<TraceRecord[]> {
  if (query.traceIds?.length === 0) return [];
  const sortBy = query.sortBy ?? "startTime";
  const direction = query.sortDirection ?? "desc";
  const sortColumn = sql.ref(`t.${columnOf[sortBy]}`);
  const after = query.after;
  const rows = await db
    .selectFrom("traces as t")
    .select([
      "t.trace_id",
      "t.project_id",
      "t.span_count",
      "t.error_count",
      sql<string>`t.start_ns::text`.as("start_ns"),
      sql<string>`t.end_ns::text`.as("end_ns"),
      sql<string>`t.duration_ns::text`.as("duration_ns"),
      "t.root_span_name",
      "t.session_id",
      "t.user_id",
      "t.tags",
      "t.models",
      sql<string>`t.tokens_input::text`.as("tokens_input"),
      sql<string>`t.tokens_output::text`.as("tokens_output"),
      sql<string>`t.tokens_total::text`.as("tokens_total"),
      sql<string>`t.cost_total_microcents::text`.as("cost_total_microcents"),
      "t.input",
      "t.output",
      sql<string>`${sortColumn}::text`.as("sort_value"),
    ])
    .where("t.project_id", "=", query.projectId)
    .$if(query.traceIds !== undefined, (qb) => qb.where("t.trace_id", "in", [...(query.traceIds ?? [])]))
    .$if(whereOf(query) !== undefined, (qb) => qb.where(whereOf(query) as RawBuilder<boolean>))
    .$if(after !== undefined, (qb) =>
      qb.where(
        sql<boolean>`(${sortColumn}, t.trace_id) ${sql.raw(direction === "asc" ? ">" : "<")} (${after?.value}::bigint, ${after?.traceId})`,
      ),
    )
    .orderBy(sortColumn, direction)
    .orderBy("t.trace_id", direction)
    .$if(query.limit !== undefined, (qb) => qb.limit(query.limit ?? 0))
    .execute();
  return rows.map((row) => ({
    traceId: row.trace_id,
    projectId: row.project_id,
    spanCount: row.span_count,
    errorCount: row.error_count,
    startTime: unixNanosToIso(row.start_ns),
    endTime: unixNanosToIso(row.end_ns),
    durationNs: row.duration_ns,
    rootSpanName: row.root_span_name,
    ...traceFactsOf(row),
    tokensTotal: Number(row.tokens_total),
    costTotalMicrocents: Number(row.cost_total_microcents),
    input: (row.input ?? null) as Trace["input"],
    output: (row.output ?? null) as Trace["output"],
    sortValue: row.sort_value,
  }));
}
