import {
  DomainError,
  MAX_METRIC_BUCKETS,
  MAX_METRIC_GROUPS,
  type MetricBucket,
  type OperationInput,
  type operations,
  type TraceMetricPoint,
  type TraceMetrics,
} from "@svc/contracts";
import { type Database, findProjectId, latencyQuantile } from "@svc/db";
import type { Kysely } from "kysely";
import { listTraceMetricRows, type TraceMetricRow } from "../repositories/trace-metrics";

const BUCKET_MS: Record<MetricBucket, number> = { minute: 60_000, hour: 3_600_000, day: 86_400_000 };

/**
 * The project's traces per bucket and group, from the per-minute and per-hour totals the ingest keeps
 * (days add up hours): a month is some hundreds of rows per group, whatever the number of traces.
 */
export async function getTraceMetrics(
  db: Kysely<Database>,
  organizationId: string,
  { params, query }: OperationInput<typeof operations.getTraceMetrics>,
): Promise<TraceMetrics> {
  const size = BUCKET_MS[query.bucket];
  const { fromMs, toMs } = rangeOf(query.from, query.to, size);
  const projectId = await findProjectId(db, organizationId, params.projectSlug);
  const rows = await listTraceMetricRows(db, {
    projectId,
    width: query.bucket === "minute" ? "minute" : "hour",
    grouping: query.groupBy ?? "all",
    fromMs,
    toMs,
  });
  const groups = query.groupBy === undefined ? [ALL] : rankedGroups(rows);
  const points = new Map<string, Totals>();
  for (const row of rows) {
    const time = Math.floor(row.timeMs / size) * size;
    const group = groups.find((candidate) => candidate.has(row.groupValue)) ?? OTHER;
    const key = `${time}\n${group.key}`;
    points.set(key, addRow(points.get(key) ?? emptyTotals(), row));
  }
  const shown = hasOthers(rows, groups) ? [...groups, OTHER] : groups;
  const series: TraceMetricPoint[] = [];
  for (let time = fromMs; time < toMs; time += size) {
    for (const group of shown) {
      const totals = points.get(`${time}\n${group.key}`) ?? emptyTotals();
      series.push(pointOf(time, group, totals));
    }
  }
  return { series };
}

/** The range rounded out to whole buckets, refused when backwards or longer than MAX_METRIC_BUCKETS. */
function rangeOf(from: string, to: string | undefined, size: number): { fromMs: number; toMs: number } {
  const fromMs = Math.floor(Date.parse(from) / size) * size;
  const end = to === undefined ? Date.now() : Date.parse(to);
  if (end <= Date.parse(from)) throw invalidQuery("query.to", "must be later than from");
  const toMs = Math.ceil(end / size) * size;
  const buckets = (toMs - fromMs) / size;
  if (buckets > MAX_METRIC_BUCKETS) {
    throw invalidQuery(
      "query.from",
      `spans ${buckets} buckets, more than the ${MAX_METRIC_BUCKETS} a series may have; ask for a wider bucket or a shorter range`,
    );
  }
  return { fromMs, toMs };
}

const invalidQuery = (path: string, message: string): DomainError =>
  new DomainError("validation_failed", `${path.replace("query.", "")} ${message}`, {
    issues: [{ path, message, code: "custom" }],
  });

/** A series: which `group_value`s it adds up, and what it is called in the answer. */
interface Group {
  key: string;
  group: string | null;
  otherGroups: boolean;
  has(value: string): boolean;
}

const ALL: Group = { key: "all", group: null, otherGroups: false, has: () => true };
const OTHER: Group = { key: "other", group: null, otherGroups: true, has: () => false };

/** The MAX_METRIC_GROUPS groups with the most traces in the range, most first (ties by name). */
function rankedGroups(rows: readonly TraceMetricRow[]): Group[] {
  const traces = new Map<string, number>();
  for (const row of rows) traces.set(row.groupValue, (traces.get(row.groupValue) ?? 0) + row.traces);
  return [...traces.entries()]
    .sort(([a, m], [b, n]) => n - m || (a < b ? -1 : a > b ? 1 : 0))
    .slice(0, MAX_METRIC_GROUPS)
    .map(([value]) => ({
      key: `value:${value}`,
      group: value === "" ? null : value,
      otherGroups: false,
      has: (candidate: string) => candidate === value,
    }));
}

const hasOthers = (rows: readonly TraceMetricRow[], groups: readonly Group[]): boolean =>
  rows.some((row) => !groups.some((group) => group.has(row.groupValue)));

interface Totals {
  traces: number;
  errors: number;
  tokensInput: number;
  tokensOutput: number;
  costMicrocents: number;
  latency: Map<number, number>;
}

const emptyTotals = (): Totals => ({
  traces: 0,
  errors: 0,
  tokensInput: 0,
  tokensOutput: 0,
  costMicrocents: 0,
  latency: new Map(),
});

function addRow(totals: Totals, row: TraceMetricRow): Totals {
  totals.traces += row.traces;
  totals.errors += row.errors;
  totals.tokensInput += row.tokensInput;
  totals.tokensOutput += row.tokensOutput;
  totals.costMicrocents += row.costMicrocents;
  for (const [bucket, count] of Object.entries(row.latency)) {
    totals.latency.set(Number(bucket), (totals.latency.get(Number(bucket)) ?? 0) + count);
  }
  return totals;
}

const pointOf = (time: number, group: Group, totals: Totals): TraceMetricPoint => ({
  time: new Date(time).toISOString(),
  group: group.group,
  otherGroups: group.otherGroups,
  traces: totals.traces,
  errors: totals.errors,
  latencyP50Ms: latencyQuantile(totals.latency, 0.5),
  latencyP95Ms: latencyQuantile(totals.latency, 0.95),
  tokensInput: totals.tokensInput,
  tokensOutput: totals.tokensOutput,
  costMicrocents: totals.costMicrocents,
});
