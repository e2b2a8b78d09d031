import type { GetTraceMetricsResponse } from "@svc/sdk";

/*
 * The dashboard's time range, its bucket, and its series reshaped for charts: one row per bucket with
 * a value per group, and the traces list's address for each point.
 */

export type Bucket = "minute" | "hour" | "day";
export type MetricPoint = GetTraceMetricsResponse["series"][number];

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** The ranges a person picks from, each ending now. */
export const presetRanges = {
  hour: { label: "Last hour", span: HOUR },
  day: { label: "Last day", span: DAY },
  week: { label: "Last week", span: 7 * DAY },
  month: { label: "Last 30 days", span: 30 * DAY },
} as const;
export type Preset = keyof typeof presetRanges;

/** The bucket that draws a range in tens to a few hundred points: never more than the API's 1,440. */
export function bucketFor(spanMs: number): Bucket {
  if (spanMs <= 6 * HOUR) return "minute";
  if (spanMs <= 31 * DAY) return "hour";
  return "day";
}

const bucketMs: Record<Bucket, number> = { minute: MINUTE, hour: HOUR, day: DAY };

/** The end of the bucket that starts at `time`. */
export const bucketEnd = (time: string, bucket: Bucket): string =>
  new Date(Date.parse(time) + bucketMs[bucket]).toISOString();

export interface Range {
  from: string;
  to: string;
  bucket: Bucket;
}

/** A preset ending at `now`, or a custom range; the week's hours and the month's days read best. */
export function rangeOf(choice: Preset | { from: string; to: string }, now: number): Range {
  if (typeof choice === "string") {
    const span = presetRanges[choice].span;
    const bucket = choice === "week" ? "hour" : choice === "month" ? "day" : bucketFor(span);
    return { from: new Date(now - span).toISOString(), to: new Date(now).toISOString(), bucket };
  }
  const span = Date.parse(choice.to) - Date.parse(choice.from);
  return { from: choice.from, to: choice.to, bucket: bucketFor(span) };
}

/** The label of a series' group: its name, "(none)" for traces without one, "Others" for the rest. */
export const groupLabel = (point: Pick<MetricPoint, "group" | "otherGroups">): string =>
  point.otherGroups ? "Others" : (point.group ?? "(none)");

export interface ChartRow {
  time: string;
  /** The group's value at that time, by group label. */
  values: Record<string, number>;
}

/** The series as one row per bucket, in time order, with each group's value of `measure`. */
export function chartRows(series: readonly MetricPoint[], measure: (point: MetricPoint) => number) {
  const rows = new Map<string, ChartRow>();
  const groups: string[] = [];
  for (const point of series) {
    const label = groupLabel(point);
    if (!groups.includes(label)) groups.push(label);
    const row = rows.get(point.time) ?? { time: point.time, values: {} };
    row.values[label] = (row.values[label] ?? 0) + measure(point);
    rows.set(point.time, row);
  }
  return { rows: [...rows.values()].sort((a, b) => a.time.localeCompare(b.time)), groups };
}

/** The traces list's address for one bucket, and one model when the point is a model's. */
export function listAddress(projectSlug: string, time: string, bucket: Bucket, model?: string): string {
  const params = new URLSearchParams({ from: new Date(time).toISOString(), to: bucketEnd(time, bucket) });
  if (model && model !== "(none)" && model !== "Others") params.set("model", model);
  return `/projects/${projectSlug}/traces?${params.toString()}`;
}

/** The point of a chart the keyboard is on: a bucket (row) and one of its lines. */
export interface ChartFocus {
  row: number;
  line: number;
}

/**
 * Where a key moves the keyboard's point: left and right along the time axis, Home and End to its
 * ends, Page Up and Page Down ten buckets at once, up and down from one line to the next. Undefined
 * for a key that moves nothing, so that it keeps its usual meaning.
 */
export function movedFocus(
  focus: ChartFocus,
  key: string,
  rowCount: number,
  lineCount: number,
): ChartFocus | undefined {
  const row = (to: number) => ({ ...focus, row: Math.min(Math.max(to, 0), Math.max(rowCount - 1, 0)) });
  const line = (to: number) => ({ ...focus, line: Math.min(Math.max(to, 0), Math.max(lineCount - 1, 0)) });
  switch (key) {
    case "ArrowRight":
      return row(focus.row + 1);
    case "ArrowLeft":
      return row(focus.row - 1);
    case "Home":
      return row(0);
    case "End":
      return row(rowCount - 1);
    case "PageDown":
      return row(focus.row + 10);
    case "PageUp":
      return row(focus.row - 10);
    case "ArrowDown":
      return line(focus.line + 1);
    case "ArrowUp":
      return line(focus.line - 1);
    default:
      return undefined;
  }
}

/** Where the keyboard first lands in a chart: its latest bucket with a value, or its last one. */
export function firstFocus(rows: readonly ChartRow[], lines: readonly string[]): ChartFocus {
  for (let row = rows.length - 1; row >= 0; row--) {
    const values = rows[row]?.values ?? {};
    const line = lines.findIndex((name) => (values[name] ?? 0) !== 0);
    if (line >= 0) return { row, line };
  }
  return { row: Math.max(rows.length - 1, 0), line: 0 };
}
