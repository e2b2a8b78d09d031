import { z } from "zod";
import { page, timestampSchema } from "./common";
import { cellSchema, projectPathSchema } from "./datasets";
import { nanosSchema } from "./nanos";
import { traceIdSchema } from "./otlp";

/* Traces as the platform shows them: what the API answers about a trace and its spans. */

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
  parentSpanId: z
    .string()
    .nullable()
    .describe(
      "The parent's span id; null for a root. It may name a span that is not in `spans` (its exporter never sent it, or not yet): draw such a span as a root of its own",
    ),
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
  model: z
    .string()
    .nullable()
    .describe(
      "The model that answered (gen_ai.response.model), else the one asked for (gen_ai.request.model)",
    ),
  input: cellSchema.describe(
    "The generative-AI input messages (gen_ai.input.messages, gen_ai.prompt and their older forms); null when none",
  ),
  output: cellSchema.describe(
    "The generative-AI output messages (gen_ai.output.messages, gen_ai.completion…)",
  ),
  tokensInput: z.number().int(),
  tokensOutput: z.number().int(),
  costMicrocents: z
    .number()
    .int()
    .nullable()
    .describe(
      "What the exporter said it cost (gen_ai.usage.cost), else its tokens at the model's price when it was ingested; null when neither is known",
    ),
});
export type Span = z.infer<typeof spanSchema>;

export const traceWithSpansSchema = traceSchema.extend({
  spans: z
    .array(spanSchema)
    .describe(
      "Every span of the trace, by start time (then span id): a flat list a client builds the tree from with parentSpanId, however deep",
    ),
});
export type TraceWithSpans = z.infer<typeof traceWithSpansSchema>;

export const tracePathSchema = projectPathSchema.extend({ traceId: traceIdSchema });
export const tracePageSchema = page(traceSchema).extend({
  total: z.number().int().describe("How many traces match the filters, exactly, over every page"),
});
export type TracePage = z.infer<typeof tracePageSchema>;
