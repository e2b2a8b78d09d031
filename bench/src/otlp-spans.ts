import { randomBytes } from "node:crypto";
import { ingestTracesBodySchema } from "@svc/contracts";
import protobuf from "protobufjs";
import { attributesOf, type OtlpValue } from "../../e2e/src/otlp-attributes";
import { otlpTraceDescriptor } from "../../services/gateway/src/otlp-proto";
import { spanFacts } from "../../services/trace-ingest/src/domain/gen-ai";
import { receivedSpans } from "../../services/trace-ingest/src/domain/otlp";
import { priceTable, spanCost } from "../../services/trace-ingest/src/domain/prices";
import { SPAN_COLUMNS, type SpanColumn, spanRowOf } from "../../services/trace-ingest/src/repositories/spans";

/*
 * Spans as an instrumented agent exports them, in OTLP/HTTP JSON, and the same spans as the two
 * things the monitoring benchmark sends: an OTLP/HTTP protobuf body (OpenTelemetry's own message
 * definitions, the descriptor the gateway decodes with) and the rows trace-ingest would store, as
 * lines of COPY's text format.
 */

/** A span as the generators below describe it, times in milliseconds since the epoch. */
export interface SpanSpec {
  spanId: string;
  parentSpanId?: string;
  name: string;
  /** OTLP's SpanKind: 1 internal, 2 server, 3 client. */
  kind: number;
  fromMs: number;
  toMs: number;
  attributes: Record<string, OtlpValue>;
  error?: string;
}

export interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes: ReturnType<typeof attributesOf>;
  status?: { code: number; message: string };
}

export const MODELS = ["gpt-4o", "gpt-4o-mini", "claude-sonnet-4-20250514", "gemini-2.5-flash"] as const;

const newId = (bytes: number): string => randomBytes(bytes).toString("hex");
export const newTraceId = (): string => newId(16);
const nanos = (ms: number): string => (BigInt(Math.round(ms * 1000)) * 1000n).toString();
const messages = (role: string, content: string): string => JSON.stringify([{ role, content }]);

/** One trace's spans in OTLP/HTTP JSON. */
export function otlpSpans(traceId: string, specs: readonly SpanSpec[]): OtlpSpan[] {
  return specs.map((spec) => ({
    traceId,
    spanId: spec.spanId,
    ...(spec.parentSpanId ? { parentSpanId: spec.parentSpanId } : {}),
    name: spec.name,
    kind: spec.kind,
    startTimeUnixNano: nanos(spec.fromMs),
    endTimeUnixNano: nanos(spec.toMs),
    attributes: attributesOf(spec.attributes),
    ...(spec.error ? { status: { code: 2, message: spec.error } } : {}),
  }));
}

/**
 * An agent's run of five spans: the agent (with the conversation, session, user and tags), a
 * retrieval, two model calls with their tokens and messages, and a tool call that fails one time in
 * twenty. `n` varies the models, tokens and ids from trace to trace.
 */
export function agentRun(n: number, startMs: number): SpanSpec[] {
  const root = newId(8);
  const model = MODELS[n % MODELS.length] as string;
  const second = n % 3 === 0 ? "gpt-4o-mini" : model;
  const question = `Where is my refund for order ${100_000 + n}? I was told it would arrive within five days.`;
  const answer = `Your refund for order ${100_000 + n} was sent on Monday; it reaches your account in 2 to 3 days.`;
  const chat = (model: string, at: number, tokens: number): SpanSpec => ({
    spanId: newId(8),
    parentSpanId: root,
    name: `chat ${model}`,
    kind: 3,
    fromMs: startMs + at,
    toMs: startMs + at + 400 + (n % 7) * 150,
    attributes: {
      "gen_ai.operation.name": "chat",
      "gen_ai.system": model.startsWith("gpt")
        ? "openai"
        : model.startsWith("claude")
          ? "anthropic"
          : "gemini",
      "gen_ai.request.model": model,
      "gen_ai.usage.input_tokens": tokens,
      "gen_ai.usage.output_tokens": Math.round(tokens / 6),
      "gen_ai.input.messages": messages("user", question),
      "gen_ai.output.messages": messages("assistant", answer),
    },
  });
  return [
    {
      spanId: root,
      name: "support-agent",
      kind: 2,
      fromMs: startMs,
      toMs: startMs + 3_000 + (n % 11) * 100,
      attributes: {
        "gen_ai.operation.name": "invoke_agent",
        "session.id": `session-${Math.floor(n / 10)}`,
        "user.id": `user-${(n * 7919) % 5_000}`,
        "svc.tags": n % 4 === 0 ? "beta" : "production",
        "gen_ai.input.messages": messages("user", question),
        "gen_ai.output.messages": messages("assistant", answer),
      },
    },
    {
      spanId: newId(8),
      parentSpanId: root,
      name: "retrieve documents",
      kind: 1,
      fromMs: startMs + 5,
      toMs: startMs + 60,
      attributes: { "db.system": "postgresql", "retrieval.documents": 8 },
    },
    chat(model, 70, 800 + (n % 13) * 120),
    {
      spanId: newId(8),
      parentSpanId: root,
      name: "execute_tool find_order",
      kind: 1,
      fromMs: startMs + 1_500,
      toMs: startMs + 1_620,
      attributes: { "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "find_order" },
      ...(n % 20 === 7 ? { error: "order service timed out" } : {}),
    },
    chat(second, 1_650, 1_200 + (n % 5) * 200),
  ];
}

/**
 * One trace of `count` spans (the first the agent, then a step every ten spans, each step's model
 * and tool calls under it), as a long agent run exports it.
 */
export function longRun(count: number, startMs: number): SpanSpec[] {
  const root: SpanSpec = {
    spanId: newId(8),
    name: "research-agent",
    kind: 2,
    fromMs: startMs,
    toMs: startMs + count * 20 + 100,
    attributes: {
      "gen_ai.operation.name": "invoke_agent",
      "session.id": "session-long",
      "user.id": "user-long",
      "gen_ai.input.messages": messages("user", "Summarise every open ticket of last week."),
      "gen_ai.output.messages": messages("assistant", "There were 412 open tickets; the summary follows."),
    },
  };
  const specs: SpanSpec[] = [root];
  let step = root;
  for (let n = 1; n < count; n++) {
    const fromMs = startMs + n * 20;
    if (n % 10 === 1) {
      step = {
        spanId: newId(8),
        parentSpanId: root.spanId,
        name: `step ${Math.floor(n / 10)}`,
        kind: 1,
        fromMs,
        toMs: fromMs + 195,
        attributes: { "gen_ai.operation.name": "invoke_agent" },
      };
      specs.push(step);
      continue;
    }
    const model = n % 2 === 0;
    specs.push({
      spanId: newId(8),
      parentSpanId: step.spanId,
      name: model ? `chat gpt-4o-mini ${n}` : `execute_tool search ${n}`,
      kind: model ? 3 : 1,
      fromMs,
      toMs: fromMs + 18,
      attributes: model
        ? {
            "gen_ai.operation.name": "chat",
            "gen_ai.request.model": "gpt-4o-mini",
            "gen_ai.usage.input_tokens": 300 + n,
            "gen_ai.usage.output_tokens": 40,
          }
        : { "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "search", query: `ticket ${n}` },
    });
  }
  return specs;
}

/** An export request of one resource and scope, as OpenTelemetry's OTLP/HTTP JSON exporter sends it. */
export function exportBody(spans: readonly OtlpSpan[]) {
  return {
    resourceSpans: [
      {
        resource: {
          attributes: attributesOf({ "service.name": "support-bot", "deployment.environment": "prod" }),
        },
        scopeSpans: [{ scope: { name: "support-bot.agent", version: "1.4.0" }, spans }],
      },
    ],
  };
}
export type ExportBody = ReturnType<typeof exportBody>;

const ExportRequest = protobuf.Root.fromJSON(
  otlpTraceDescriptor as unknown as protobuf.INamespace,
).lookupType("opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest");

/** The same request in OTLP/HTTP protobuf: ids as bytes, as the protobuf exporter sends it. */
export function protobufOf(body: ExportBody): Uint8Array {
  const bytes = (hex: string | undefined) => (hex === undefined ? undefined : Buffer.from(hex, "hex"));
  const message = {
    resourceSpans: body.resourceSpans.map((resourceSpans) => ({
      ...resourceSpans,
      scopeSpans: resourceSpans.scopeSpans.map((scopeSpans) => ({
        ...scopeSpans,
        spans: scopeSpans.spans.map((span) => ({
          ...span,
          traceId: bytes(span.traceId),
          spanId: bytes(span.spanId),
          parentSpanId: bytes(span.parentSpanId),
        })),
      })),
    })),
  };
  return ExportRequest.encode(ExportRequest.fromObject(message)).finish();
}

/** The columns trace-ingest writes to `spans`, in the order of `copyLinesOf`'s fields. */
export const COPY_COLUMNS = ["project_id", ...(Object.keys(SPAN_COLUMNS) as SpanColumn[])];

const defaultPrices = priceTable([]);

/**
 * The rows trace-ingest stores for this request (its own reading of the spans and their facts, its
 * default prices, its rows), as COPY text-format lines of COPY_COLUMNS.
 */
export function copyLinesOf(body: ExportBody, projectId: string): string {
  let lines = "";
  for (const span of receivedSpans(ingestTracesBodySchema.parse(body))) {
    const facts = spanFacts(span);
    const row = spanRowOf({ span, facts, costMicrocents: spanCost(facts, span.startNs, defaultPrices) });
    const fields = (Object.keys(SPAN_COLUMNS) as SpanColumn[]).map((column) =>
      SPAN_COLUMNS[column] === "jsonb"
        ? JSON.stringify(row[column])
        : (row[column] as string | number | null),
    );
    lines += `${[projectId, ...fields].map(copyField).join("\t")}\n`;
  }
  return lines;
}

/** A value in COPY's text format: \N for null, backslash, tab and line breaks escaped. */
const copyField = (value: string | number | null): string =>
  value === null
    ? "\\N"
    : String(value).replace(/[\\\t\n\r]/g, (c) =>
        c === "\\" ? "\\\\" : c === "\t" ? "\\t" : c === "\n" ? "\\n" : "\\r",
      );
