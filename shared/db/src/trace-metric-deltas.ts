import { latencyBucketOf } from "./trace-metrics";

/** What of a trace's summary the metrics count (docs/decisions/0040-trace-metrics.md). */
export interface TraceMetricFacts {
  startNs: string;
  durationNs: string;
  failed: boolean;
  rootSpanName: string | null;
  models: readonly string[];
  tags: readonly string[];
  tokensInput: number;
  tokensOutput: number;
  costMicrocents: number;
}

export type MetricWidth = "minute" | "hour";
export type MetricGrouping = "all" | "model" | "rootSpanName" | "tag";

/** What to add to one row of `trace_metrics` (negative to take a trace's old summary out). */
export interface TraceMetricDelta {
  width: MetricWidth;
  grouping: MetricGrouping;
  bucketStart: string;
  /** '' for traces without a value, and for the grouping of all traces. */
  groupValue: string;
  traces: number;
  errors: number;
  tokensInput: number;
  tokensOutput: number;
  costMicrocents: number;
  latency: Record<string, number>;
}

const WIDTH_NS: Record<MetricWidth, bigint> = { minute: 60_000_000_000n, hour: 3_600_000_000_000n };

/**
 * What the metrics change by when traces' summaries change from `before` (null for a new trace) to
 * `after`: each old summary taken out of its rows, each new one added to its rows. Rows that do not
 * change are left out; the rest are in key order, the order their locks are taken in.
 */
export function traceMetricDeltas(
  changes: readonly { before: TraceMetricFacts | null; after: TraceMetricFacts }[],
): TraceMetricDelta[] {
  const rows = new Map<string, TraceMetricDelta>();
  for (const { before, after } of changes) {
    if (before) addTrace(rows, before, -1);
    addTrace(rows, after, 1);
  }
  return [...rows.entries()]
    .filter(([, row]) => !isNothing(row))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([, row]) => row);
}

function addTrace(rows: Map<string, TraceMetricDelta>, trace: TraceMetricFacts, sign: 1 | -1): void {
  const latencyBucket = String(latencyBucketOf(trace.durationNs));
  for (const width of ["minute", "hour"] as const) {
    const bucketStart = bucketStartOf(trace.startNs, width);
    for (const [grouping, groupValue] of groupsOf(trace)) {
      const key = JSON.stringify([width, grouping, bucketStart, groupValue]);
      const row = rows.get(key) ?? emptyRow(width, grouping, bucketStart, groupValue);
      row.traces += sign;
      row.errors += trace.failed ? sign : 0;
      row.tokensInput += sign * trace.tokensInput;
      row.tokensOutput += sign * trace.tokensOutput;
      row.costMicrocents += sign * trace.costMicrocents;
      row.latency[latencyBucket] = (row.latency[latencyBucket] ?? 0) + sign;
      if (row.latency[latencyBucket] === 0) delete row.latency[latencyBucket];
      rows.set(key, row);
    }
  }
}

/** Every group a trace counts in: all traces, its root span's name, each model and each tag. */
function groupsOf(trace: TraceMetricFacts): [MetricGrouping, string][] {
  const eachOr = (values: readonly string[]) => (values.length === 0 ? [""] : [...new Set(values)]);
  return [
    ["all", ""],
    ["rootSpanName", trace.rootSpanName ?? ""],
    ...eachOr(trace.models).map((model): [MetricGrouping, string] => ["model", model]),
    ...eachOr(trace.tags).map((tag): [MetricGrouping, string] => ["tag", tag]),
  ];
}

/** The start of the UTC minute or hour holding an instant, as ISO-8601. */
export function bucketStartOf(startNs: string, width: MetricWidth): string {
  const size = WIDTH_NS[width];
  const start = (BigInt(startNs) / size) * size;
  return new Date(Number(start / 1_000_000n)).toISOString();
}

const emptyRow = (
  width: MetricWidth,
  grouping: MetricGrouping,
  bucketStart: string,
  groupValue: string,
): TraceMetricDelta => ({
  width,
  grouping,
  bucketStart,
  groupValue,
  traces: 0,
  errors: 0,
  tokensInput: 0,
  tokensOutput: 0,
  costMicrocents: 0,
  latency: {},
});

const isNothing = (row: TraceMetricDelta): boolean =>
  row.traces === 0 &&
  row.errors === 0 &&
  row.tokensInput === 0 &&
  row.tokensOutput === 0 &&
  row.costMicrocents === 0 &&
  Object.keys(row.latency).length === 0;
