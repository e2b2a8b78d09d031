import { z } from "zod";
import { limitSchema, page, sortDirectionSchema, timestampSchema } from "./common";
import { projectPathSchema } from "./datasets";

/* Monitoring: a project's traces counted over time, and gathered by session and by user. */

export const metricBuckets = ["minute", "hour", "day"] as const;
export type MetricBucket = (typeof metricBuckets)[number];
export const metricGroupings = ["model", "rootSpanName", "tag"] as const;
export type MetricGrouping = (typeof metricGroupings)[number];

/** At most this many buckets in one series: 1,440 is a day by the minute, or 60 days by the hour. */
export const MAX_METRIC_BUCKETS = 1440;
/** At most this many groups keep a series of their own; the others are summed into one. */
export const MAX_METRIC_GROUPS = 20;

const instantSchema = z.iso.datetime({
  offset: true,
  error: "must be an ISO-8601 timestamp, like 2024-05-01T12:00:00Z",
});

export const traceMetricsQuerySchema = z.strictObject({
  from: instantSchema.describe("Start of the range (inclusive), rounded down to its bucket"),
  to: instantSchema
    .optional()
    .describe("End of the range (exclusive), rounded up to a bucket; now if absent"),
  bucket: z
    .enum(metricBuckets, { error: `must be one of ${metricBuckets.join(", ")}` })
    .default("hour")
    .describe("Width of each point of the series, in UTC"),
  groupBy: z
    .enum(metricGroupings, { error: `must be one of ${metricGroupings.join(", ")}` })
    .optional()
    .describe("One series per model, root span name or tag; one series for all traces if absent"),
});
export type TraceMetricsQuery = z.output<typeof traceMetricsQuerySchema>;

export const traceMetricPointSchema = z.object({
  time: timestampSchema.describe("Start of the bucket"),
  group: z
    .string()
    .nullable()
    .describe(
      "The model, root span name or tag; null for traces without one (and for every point without groupBy, and for the sum of the other groups)",
    ),
  otherGroups: z
    .boolean()
    .describe(
      `True for the one series that sums every group past the ${MAX_METRIC_GROUPS} with the most traces`,
    ),
  traces: z.number().int().describe("Traces that started in the bucket"),
  errors: z.number().int().describe("Of those, traces with at least one span whose status is error"),
  latencyP50Ms: z.number().describe("Median trace duration in milliseconds, within 5% (0 without traces)"),
  latencyP95Ms: z.number().describe("95th percentile of trace duration in milliseconds, within 5%"),
  tokensInput: z.number().int(),
  tokensOutput: z.number().int(),
  costMicrocents: z.number().int().describe("Cost in millionths of a US cent (1 USD = 10^8)"),
});
export type TraceMetricPoint = z.infer<typeof traceMetricPointSchema>;

export const traceMetricsSchema = z.object({
  series: z
    .array(traceMetricPointSchema)
    .describe(
      "Every bucket of the range for each group, by time then group; a bucket without traces is zeros",
    ),
});
export type TraceMetrics = z.infer<typeof traceMetricsSchema>;

export const traceGroupSortFields = [
  "lastTime",
  "firstTime",
  "traces",
  "errors",
  "tokensTotal",
  "costMicrocents",
] as const;
export type TraceGroupSortField = (typeof traceGroupSortFields)[number];

export const listTraceGroupsQuerySchema = z.strictObject({
  cursor: z.string().min(1).max(2000).optional().describe("Opaque cursor from a previous page's nextCursor"),
  limit: limitSchema,
  sortBy: z
    .enum(traceGroupSortFields, { error: `must be one of ${traceGroupSortFields.join(", ")}` })
    .default("lastTime"),
  sortDirection: sortDirectionSchema.default("desc"),
  from: instantSchema.optional().describe("Only traces that started at or after this instant"),
  to: instantSchema.optional().describe("Only traces that started before this instant"),
});
export type ListTraceGroupsQuery = z.output<typeof listTraceGroupsQuerySchema>;

/** What a set of traces adds up to: the totals of a session or of a user. */
const traceTotalsSchema = z.object({
  traces: z.number().int(),
  errors: z.number().int().describe("Traces with at least one span whose status is error"),
  tokensInput: z.number().int(),
  tokensOutput: z.number().int(),
  tokensTotal: z.number().int(),
  costMicrocents: z.number().int(),
  firstTime: timestampSchema.describe("Start of the earliest trace"),
  lastTime: timestampSchema.describe("Start of the latest trace"),
});

export const traceSessionSchema = traceTotalsSchema.extend({ sessionId: z.string() });
export type TraceSession = z.infer<typeof traceSessionSchema>;
export const traceUserSchema = traceTotalsSchema.extend({ userId: z.string() });
export type TraceUser = z.infer<typeof traceUserSchema>;

export const traceSessionPageSchema = page(traceSessionSchema);
export const traceUserPageSchema = page(traceUserSchema);
export const monitoringPathSchema = projectPathSchema;
