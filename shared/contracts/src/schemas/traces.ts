import { z } from "zod";
import { bodyLimitSchema, cursorSchema, page, sortDirectionSchema, timestampSchema } from "./common";
import { cellSchema, projectPathSchema } from "./datasets";

/*
 * OTLP/HTTP JSON, as OpenTelemetry exporters send it (opentelemetry-proto, ExportTraceServiceRequest):
 * lowerCamelCase field names, trace and span ids as hex, 64-bit integers as decimal strings or numbers,
 * enums as integers. Unknown fields are ignored, as the OTLP specification asks of receivers.
 */

/**
 * Hex, but not all zeros (OpenTelemetry's invalid id): one pattern, not a refine, so that the document
 * says both.
 */
const HEX_TRACE_ID = /^(?!0+$)[0-9a-fA-F]{32}$/;
const HEX_SPAN_ID = /^(?!0+$)[0-9a-fA-F]{16}$/;
const ALL_ZERO = /^0+$/;
/**
 * A JSON number that must be whole, of any size: `.int()` would stop at 2^53, below today's time in
 * nanoseconds, so a refine checks it and the document says `integer`.
 */
const wholeNumber = (schema: z.ZodNumber) => schema.meta({ type: "integer" });

/** Nanoseconds fit in a signed 64-bit integer until the year 2262. */
const MAX_INT64 = 9_223_372_036_854_775_807n;

const requiredOr = (what: string) => (issue: { input?: unknown }) =>
  issue.input === undefined ? `is required: ${what}` : `must be ${what}`;

function hexId(bytes: 8 | 16, pattern: RegExp, what: string) {
  const shape = `${bytes * 2} hex characters (${bytes} bytes)`;
  return z
    .string({ error: requiredOr(`the ${what} as ${shape}`) })
    .regex(pattern, {
      error: (issue) => (ALL_ZERO.test(String(issue.input)) ? "must not be all zeros" : `must be ${shape}`),
    })
    .transform((value) => value.toLowerCase());
}

export const traceIdSchema = hexId(16, HEX_TRACE_ID, "trace id").describe(
  "Trace id: 32 hex characters, as OpenTelemetry writes it",
);
export const spanIdSchema = hexId(8, HEX_SPAN_ID, "span id");

/** A non-negative 64-bit count of nanoseconds, as a string of digits (JSON numbers lose precision past 2^53). */
export const nanosSchema = z.string().regex(/^\d{1,19}$/);

/** OTLP's fixed64 `*UnixNano`: a string of digits or a JSON number; normalised to a string of digits. */
const UNIX_NANOS = "nanoseconds since the Unix epoch, as a string of digits or an integer";
const unixNanoSchema = z
  .union(
    [
      z.string().regex(/^\d{1,20}$/, `must be ${UNIX_NANOS}`),
      wholeNumber(
        z.number().nonnegative(`must be ${UNIX_NANOS}`).refine(Number.isInteger, `must be ${UNIX_NANOS}`),
      ),
    ],
    { error: requiredOr(UNIX_NANOS) },
  )
  .transform((value) => BigInt(value))
  .refine((value) => value <= MAX_INT64, "must be at most 9223372036854775807")
  .transform((value) => value.toString());

const int64Schema = z.union([
  z.string().regex(/^-?\d{1,20}$/, "must be an integer"),
  wholeNumber(z.number().refine(Number.isInteger, "must be an integer")),
]);
/** proto3 JSON writes non-finite doubles as strings. */
const doubleSchema = z.union([z.number(), z.enum(["NaN", "Infinity", "-Infinity"])]);

export interface OtlpAnyValue {
  stringValue?: string | undefined;
  boolValue?: boolean | undefined;
  intValue?: string | number | undefined;
  doubleValue?: number | string | undefined;
  bytesValue?: string | undefined;
  arrayValue?: { values?: OtlpAnyValue[] | undefined } | undefined;
  kvlistValue?: { values?: OtlpKeyValue[] | undefined } | undefined;
}
export interface OtlpKeyValue {
  key: string;
  value?: OtlpAnyValue | undefined;
}

/** OTLP AnyValue: exactly one of its fields is set; none means an empty value. */
export const otlpAnyValueSchema: z.ZodType<OtlpAnyValue> = z.object({
  stringValue: z.string().optional(),
  boolValue: z.boolean().optional(),
  intValue: int64Schema.optional(),
  doubleValue: doubleSchema.optional(),
  bytesValue: z.string().optional(),
  get arrayValue() {
    return z.object({ values: z.array(otlpAnyValueSchema).optional() }).optional();
  },
  get kvlistValue() {
    return z.object({ values: z.array(otlpKeyValueSchema).optional() }).optional();
  },
});
const otlpKeyValueSchema: z.ZodType<OtlpKeyValue> = z.object({
  key: z.string({ error: requiredOr("the attribute's name") }),
  value: otlpAnyValueSchema.optional(),
});
const attributesSchema = z.array(otlpKeyValueSchema).optional();

const spanKinds = [
  "SPAN_KIND_UNSPECIFIED",
  "SPAN_KIND_INTERNAL",
  "SPAN_KIND_SERVER",
  "SPAN_KIND_CLIENT",
  "SPAN_KIND_PRODUCER",
  "SPAN_KIND_CONSUMER",
] as const;
const statusCodes = ["STATUS_CODE_UNSET", "STATUS_CODE_OK", "STATUS_CODE_ERROR"] as const;

/** An OTLP enum: its integer, or (as protobuf's JSON mapping also allows) its name. */
function otlpEnum<const N extends readonly [string, ...string[]]>(names: N, what: string) {
  const message = `must be a ${what}: an integer from 0 to ${names.length - 1} or one of ${names.join(", ")}`;
  return z
    .union(
      [
        z
          .number()
          .int(message)
          .min(0, message)
          .max(names.length - 1, message),
        z.enum(names),
      ],
      {
        error: message,
      },
    )
    .transform((value) => (typeof value === "number" ? value : names.indexOf(value)));
}

export const otlpSpanSchema = z
  .object({
    traceId: traceIdSchema,
    spanId: spanIdSchema,
    parentSpanId: z
      .union([z.literal(""), spanIdSchema], { error: "must be empty or 16 hex characters (8 bytes)" })
      .optional(),
    traceState: z.string().optional(),
    name: z.string().default(""),
    kind: otlpEnum(spanKinds, "span kind").default(0),
    startTimeUnixNano: unixNanoSchema,
    endTimeUnixNano: unixNanoSchema,
    attributes: attributesSchema,
    events: z
      .array(
        z.object({
          timeUnixNano: unixNanoSchema,
          name: z.string().default(""),
          attributes: attributesSchema,
        }),
      )
      .optional(),
    links: z
      .array(z.object({ traceId: traceIdSchema, spanId: spanIdSchema, attributes: attributesSchema }))
      .optional(),
    status: z
      .object({
        code: otlpEnum(statusCodes, "status code").default(0),
        message: z.string().optional(),
      })
      .optional(),
  })
  .refine((span) => BigInt(span.endTimeUnixNano) >= BigInt(span.startTimeUnixNano), {
    message: "endTimeUnixNano must not be before startTimeUnixNano",
    path: ["endTimeUnixNano"],
    // Only once both times are digits: zod runs an object's refine after a field's own check failed,
    // and BigInt of "abc" or 1.5 would throw (a 500 for the client's mistake).
    when: (payload) => payload.issues.length === 0,
  });
export type OtlpSpan = z.output<typeof otlpSpanSchema>;

const scopeSpansSchema = z.object({
  scope: z
    .object({ name: z.string().optional(), version: z.string().optional(), attributes: attributesSchema })
    .optional(),
  spans: z.array(otlpSpanSchema).default([]),
  schemaUrl: z.string().optional(),
});

const resourceSpansSchema = z.object({
  resource: z.object({ attributes: attributesSchema }).optional(),
  scopeSpans: z.array(scopeSpansSchema).default([]),
  schemaUrl: z.string().optional(),
});

export const ingestTracesBodySchema = z
  .object(
    {
      resourceSpans: z.array(resourceSpansSchema, {
        error: requiredOr(
          "the list of resourceSpans of an OTLP ExportTraceServiceRequest; send OTLP/HTTP JSON from an OpenTelemetry exporter",
        ),
      }),
    },
    {
      error:
        "must be an OTLP ExportTraceServiceRequest ({resourceSpans: [...]}) as OpenTelemetry's OTLP/HTTP JSON exporters send it",
    },
  )
  .describe("OTLP/HTTP JSON ExportTraceServiceRequest, as any OpenTelemetry exporter sends it");
export type IngestTracesBody = z.output<typeof ingestTracesBodySchema>;

export const ingestTracesHeadersSchema = z.object({
  xSvcProject: z
    .string({ error: requiredOr("the slug of the project the traces belong to, in X-Svc-Project") })
    .regex(
      /^[a-z0-9]+(?:-[a-z0-9]+)*$/,
      "must be a project slug: lowercase letters, digits and single hyphens",
    )
    .max(100)
    .describe("Slug of the project that receives the traces"),
});

/** OTLP's ExportTraceServiceResponse. */
export const ingestTracesResultSchema = z.object({
  partialSuccess: z.object({
    rejectedSpans: z.number().int().optional(),
    errorMessage: z.string().optional(),
  }),
});
export type IngestTracesResult = z.infer<typeof ingestTracesResultSchema>;

/* ------------------------------------------------------------------------------------------------ */
/* Traces as the platform shows them                                                                */

export const traceSchema = z.object({
  traceId: z.string(),
  projectId: z.string(),
  spanCount: z.number().int(),
  errorCount: z.number().int().describe("Spans whose status code is 2 (error)"),
  startTime: timestampSchema.describe("Start of the earliest span, to the millisecond"),
  endTime: timestampSchema.describe("End of the latest span, to the millisecond"),
  durationNs: nanosSchema.describe(
    "endTime - startTime in nanoseconds, exact, as a string of digits (it may exceed 2^53)",
  ),
  rootSpanName: z.string().nullable(),
  sessionId: z.string().nullable(),
  userId: z.string().nullable(),
  tags: z.array(z.string()),
  models: z.array(z.string()),
  tokensInput: z.number().int(),
  tokensOutput: z.number().int(),
  tokensTotal: z.number().int(),
  costTotalMicrocents: z.number().int().describe("Cost in millionths of a US cent (1 USD = 10^8)"),
  input: cellSchema.describe("The root span's generative-AI input messages; null when it has none"),
  output: cellSchema.describe("The root span's generative-AI output messages; null when it has none"),
});
export type Trace = z.infer<typeof traceSchema>;

export const spanKindNames = ["unspecified", "internal", "server", "client", "producer", "consumer"] as const;
export const spanStatusNames = ["unset", "ok", "error"] as const;

const attributeMapSchema = z.record(z.string(), cellSchema);

export const spanSchema = z.object({
  spanId: z.string(),
  parentSpanId: z.string().nullable(),
  name: z.string(),
  kind: z.enum(spanKindNames),
  startTime: timestampSchema,
  endTime: timestampSchema,
  startTimeUnixNano: nanosSchema,
  endTimeUnixNano: nanosSchema,
  durationNs: nanosSchema,
  status: z.object({ code: z.enum(spanStatusNames), message: z.string().nullable() }),
  attributes: attributeMapSchema.describe("The span's attributes as plain JSON values"),
  resourceAttributes: attributeMapSchema,
  scope: z.object({ name: z.string(), version: z.string().nullable() }).nullable(),
  events: z.array(
    z.object({
      name: z.string(),
      time: timestampSchema,
      timeUnixNano: nanosSchema,
      attributes: attributeMapSchema,
    }),
  ),
  links: z.array(z.object({ traceId: z.string(), spanId: z.string(), attributes: attributeMapSchema })),
});
export type Span = z.infer<typeof spanSchema>;

export const traceWithSpansSchema = traceSchema.extend({
  spans: z.array(spanSchema).describe("Every span of the trace, by start time"),
});
export type TraceWithSpans = z.infer<typeof traceWithSpansSchema>;

/* ------------------------------------------------------------------------------------------------ */
/* Filters and sorts                                                                                */

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
} as const;
export type TraceFilterField = keyof typeof traceFilterFields;
const filterFieldNames = Object.keys(traceFilterFields) as [TraceFilterField, ...TraceFilterField[]];

const comparisons = ["gt", "gte", "lt", "lte"] as const;
const countValueSchema = z.number().int("must be an integer").min(0, "must not be negative");
const nanosValueSchema = z
  .union([nanosSchema, z.number().int().min(0)], {
    error: "must be nanoseconds as a string of digits or a non-negative integer",
  })
  .transform(String);
/** An ISO-8601 instant, turned into nanoseconds since the epoch so it compares exactly with span times. */
const instantValueSchema = z.iso
  .datetime({ offset: true, error: "must be an ISO-8601 timestamp, like 2024-05-01T12:00:00Z" })
  .transform((value, ctx) => {
    const nanos = isoToUnixNanos(value);
    if (nanos !== undefined) return nanos;
    ctx.issues.push({ code: "custom", message: "must be an ISO-8601 timestamp", input: value });
    return z.NEVER;
  });
const textValueSchema = z.string().max(1000, "must be at most 1000 characters");
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
      return filterOf(field, [variant(field, ["eq", "neq", ...comparisons], countValueSchema)]);
    case "text":
      return filterOf(field, [
        variant(field, ["eq", "neq", "contains"], textValueSchema),
        variant(field, ["in"], textListSchema),
      ]);
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
    "One condition on a trace field. Operators: eq, neq, gt, gte, lt, lte (numbers and times), contains (case-insensitive substring of a text field, or an element of tags/models), in (any of the values), containsAny (tags/models holding any of the values). Times are ISO-8601; durationNs is nanoseconds.",
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
  | { field: TraceFieldOfKind<"list">; op: "containsAny"; value: string[] };
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

export const tracePathSchema = projectPathSchema.extend({ traceId: traceIdSchema });
export const tracePageSchema = page(traceSchema);

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

/**
 * `2024-05-01T12:00:00.123456789+02:00` → nanoseconds since the Unix epoch, exactly (a JavaScript Date
 * would stop at milliseconds). Undefined when the text is not such a timestamp.
 */
export function isoToUnixNanos(iso: string): string | undefined {
  const match = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2})?)(?:\.(\d+))?(Z|([+-]\d{2}):?(\d{2})?)$/i.exec(
    iso,
  );
  if (!match) return undefined;
  const [, base, fraction = "", zone = "Z", offsetHours, offsetMinutes = "00"] = match;
  const offset = offsetHours === undefined ? "Z" : `${offsetHours}:${offsetMinutes}`;
  const wholeMs = Date.parse(`${base}${zone.toUpperCase() === "Z" ? "Z" : offset}`);
  if (Number.isNaN(wholeMs)) return undefined;
  return (BigInt(wholeMs) * 1_000_000n + BigInt(fraction.slice(0, 9).padEnd(9, "0"))).toString();
}

/** Nanoseconds since the epoch → ISO-8601 to the millisecond (what every other timestamp of the API has). */
export function unixNanosToIso(nanos: string): string {
  return new Date(Number(BigInt(nanos) / 1_000_000n)).toISOString();
}
