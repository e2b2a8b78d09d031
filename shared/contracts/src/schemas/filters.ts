import { z } from "zod";
import { bodyLimitSchema, cursorSchema, MAX_INT32, sortDirectionSchema } from "./common";
import { isoToUnixNanos, MAX_NANOS, MIN_NANOS, nanosSchema, unixNanosToIso } from "./nanos";
import { traceIdSchema } from "./otlp";

/* The filter language of trace lists and imports: which fields, which operators, which values. */

/**
 * Every field a trace list can be filtered on, with what kind of value it holds. Filters combine with
 * AND; a field that is not here is refused by name.
 */
export const traceFilterFields = {
  traceId: "id",
  startTime: "time",
  endTime: "time",
  durationNs: "nanos",
  spanCount: "count",
  errorCount: "count",
  tokensInput: "count",
  tokensOutput: "count",
  tokensTotal: "count",
  costTotalMicrocents: "count",
  rootSpanName: "text",
  sessionId: "text",
  userId: "text",
  tags: "list",
  models: "list",
  text: "search",
} as const;
export type TraceFilterField = keyof typeof traceFilterFields;
const filterFieldNames = Object.keys(traceFilterFields) as [TraceFilterField, ...TraceFilterField[]];

const comparisons = ["gt", "gte", "lt", "lte"] as const;
/**
 * Counts that are PostgreSQL `integer`s; the others are `bigint`s, which hold every integer a JSON
 * number carries exactly (`.int()` stops at 2^53). A value past its column's range is refused here,
 * not by the database as a 500.
 */
const int32Counts: ReadonlySet<TraceFilterField> = new Set(["spanCount", "errorCount"]);
const countValueSchema = (field: TraceFilterField) => {
  const max = int32Counts.has(field) ? MAX_INT32 : Number.MAX_SAFE_INTEGER;
  return z
    .number({ error: "must be an integer" })
    .int({ error: "must be an integer", abort: true })
    .min(0, "must not be negative")
    .max(max, `must be at most ${max}`);
};
const nanosValueSchema = z
  .union([nanosSchema, z.number().int().min(0)], {
    error: "must be nanoseconds as a string of digits or a non-negative integer",
  })
  .transform(String)
  .refine((value) => BigInt(value) <= MAX_NANOS, `must be at most ${MAX_NANOS} nanoseconds`);
const INSTANTS = `${unixNanosToIso(MIN_NANOS.toString())} to ${unixNanosToIso(MAX_NANOS.toString())}`;
/**
 * An ISO-8601 instant, turned into nanoseconds since the epoch so it compares exactly with span times;
 * only the instants those can hold.
 */
const instantValueSchema = z.iso
  .datetime({ offset: true, error: "must be an ISO-8601 timestamp, like 2024-05-01T12:00:00Z" })
  .transform((value, ctx) => {
    const nanos = isoToUnixNanos(value);
    if (nanos === undefined) {
      ctx.issues.push({ code: "custom", message: "must be an ISO-8601 timestamp", input: value });
      return z.NEVER;
    }
    if (BigInt(nanos) > MAX_NANOS || BigInt(nanos) < MIN_NANOS) {
      ctx.issues.push({ code: "custom", message: `must be a time from ${INSTANTS}`, input: value });
      return z.NEVER;
    }
    return nanos;
  });
const textValueSchema = z.string().max(1000, "must be at most 1000 characters");
const searchValueSchema = z.string().min(1, "must not be empty").max(200, "must be at most 200 characters");
const textListSchema = z.array(textValueSchema).min(1, "must list at least one value").max(100);

function filterOf<const F extends TraceFilterField>(
  field: F,
  variants: readonly [z.ZodType, z.ZodType, ...z.ZodType[]] | readonly [z.ZodType],
) {
  return variants.length === 1
    ? (variants[0] as z.ZodType)
    : z.discriminatedUnion("op", variants as never, {
        error: (issue) =>
          issue.code === "invalid_union"
            ? `is not an operator of ${field}; use one of ${(issue as { options?: unknown[] }).options?.join(", ")}`
            : undefined,
      });
}

const variant = <F extends string, O extends readonly [string, ...string[]], V extends z.ZodType>(
  field: F,
  ops: O,
  value: V,
) =>
  z.strictObject({
    field: z.literal(field),
    op: z.enum(ops, { error: `is not an operator of ${field}; use one of ${ops.join(", ")}` }),
    value,
  });

function filtersOfKind(field: TraceFilterField) {
  switch (traceFilterFields[field]) {
    case "id":
      return filterOf(field, [
        variant(field, ["eq"], traceIdSchema),
        variant(field, ["in"], z.array(traceIdSchema).min(1).max(1000)),
      ]);
    case "time":
      return filterOf(field, [variant(field, comparisons, instantValueSchema)]);
    case "nanos":
      return filterOf(field, [variant(field, ["eq", ...comparisons], nanosValueSchema)]);
    case "count":
      return filterOf(field, [variant(field, ["eq", "neq", ...comparisons], countValueSchema(field))]);
    case "text":
      return filterOf(field, [
        variant(field, ["eq", "neq", "contains"], textValueSchema),
        variant(field, ["in"], textListSchema),
      ]);
    case "search":
      return filterOf(field, [variant(field, ["contains"], searchValueSchema)]);
    case "list":
      return filterOf(field, [
        variant(field, ["contains"], textValueSchema),
        variant(field, ["containsAny"], textListSchema),
      ]);
  }
}

export const traceFilterSchema = z
  .discriminatedUnion("field", filterFieldNames.map(filtersOfKind) as never, {
    error: (issue) => {
      if (issue.code !== "invalid_union") return undefined;
      const field = (issue.input as { field?: unknown } | undefined)?.field;
      return field === undefined
        ? `is required: the field to filter on, one of ${filterFieldNames.join(", ")}`
        : `Unknown filter field ${JSON.stringify(field)}; filter on one of ${filterFieldNames.join(", ")}`;
    },
  })
  .describe(
    "One condition on a trace field. Operators: eq, neq, gt, gte, lt, lte (numbers and times), contains (case-insensitive substring of a text field, or an element of tags/models), in (any of the values), containsAny (tags/models holding any of the values). Times are ISO-8601; durationNs is nanoseconds. `text` `contains` searches the trace's input and output messages (case-insensitive, in their JSON text); from 3 characters on it is answered from an index.",
  ) as z.ZodType<TraceFilter, unknown>;

export type TraceFilter =
  | { field: "traceId"; op: "eq"; value: string }
  | { field: "traceId"; op: "in"; value: string[] }
  | {
      field: TraceFieldOfKind<"time" | "nanos">;
      op: "eq" | "gt" | "gte" | "lt" | "lte";
      /** Nanoseconds since the epoch (times) or nanoseconds (durations), as a string of digits. */
      value: string;
    }
  | { field: TraceFieldOfKind<"count">; op: "eq" | "neq" | "gt" | "gte" | "lt" | "lte"; value: number }
  | { field: TraceFieldOfKind<"text">; op: "eq" | "neq" | "contains"; value: string }
  | { field: TraceFieldOfKind<"text">; op: "in"; value: string[] }
  | { field: TraceFieldOfKind<"list">; op: "contains"; value: string }
  | { field: TraceFieldOfKind<"list">; op: "containsAny"; value: string[] }
  | { field: "text"; op: "contains"; value: string };
type TraceFieldOfKind<K extends string> = {
  [F in TraceFilterField]: (typeof traceFilterFields)[F] extends K ? F : never;
}[TraceFilterField];

export const traceFiltersSchema = z
  .array(traceFilterSchema)
  .max(20, "must hold at most 20 filters")
  .describe("Conditions that every listed trace meets (AND)");

export const traceSortFields = [
  "startTime",
  "endTime",
  "durationNs",
  "spanCount",
  "errorCount",
  "tokensTotal",
  "costTotalMicrocents",
] as const;
export type TraceSortField = (typeof traceSortFields)[number];

export const listTracesBodySchema = z
  .strictObject({
    cursor: cursorSchema.optional(),
    limit: bodyLimitSchema,
    sortBy: z.enum(traceSortFields).default("startTime"),
    sortDirection: sortDirectionSchema.default("desc"),
    filters: traceFiltersSchema.default([]),
  })
  .prefault({});
export type ListTracesBody = z.output<typeof listTracesBodySchema>;

/** At most this many traces go into one import. */
export const MAX_IMPORTED_TRACES = 1000;

export const importTracesBodySchema = z.strictObject({
  traces: z.discriminatedUnion(
    "by",
    [
      z.strictObject({
        by: z.literal("ids"),
        ids: z.array(traceIdSchema).min(1, "must list at least one trace id"),
      }),
      z.strictObject({ by: z.literal("filters"), filters: traceFiltersSchema }),
    ],
    { error: 'must be {by: "ids", ids: [...]} or {by: "filters", filters: [...]}' },
  ),
});
export type ImportTracesBody = z.output<typeof importTracesBodySchema>;
