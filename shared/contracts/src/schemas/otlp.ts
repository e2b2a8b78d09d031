import { z } from "zod";
import { MAX_NANOS } from "./nanos";

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
  .refine((value) => value <= MAX_NANOS, `must be at most ${MAX_NANOS}`)
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
