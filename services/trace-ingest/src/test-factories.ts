import { randomBytes } from "node:crypto";

/*
 * OTLP/HTTP JSON as OpenTelemetry's JavaScript exporter writes it: hex ids, nanosecond times as strings,
 * attributes as typed key-values.
 */

export type AttributeValue = string | number | boolean | AttributeValue[] | { [key: string]: AttributeValue };

export const newTraceId = (): string => randomBytes(16).toString("hex");
export const newSpanId = (): string => randomBytes(8).toString("hex");

function anyValue(value: AttributeValue): Record<string, unknown> {
  if (typeof value === "string") return { stringValue: value };
  if (typeof value === "boolean") return { boolValue: value };
  if (typeof value === "number")
    return Number.isInteger(value) ? { intValue: value } : { doubleValue: value };
  if (Array.isArray(value)) return { arrayValue: { values: value.map(anyValue) } };
  return { kvlistValue: { values: attributes(value) } };
}

export function attributes(values: Record<string, AttributeValue>): { key: string; value: unknown }[] {
  return Object.entries(values).map(([key, value]) => ({ key, value: anyValue(value) }));
}

/** Times in a test: milliseconds after a fixed instant, written as OTLP nanoseconds. */
export const T0_MS = Date.UTC(2024, 4, 1, 12, 0, 0);
export const nanosAt = (ms: number): string => (BigInt(T0_MS + ms) * 1_000_000n).toString();

export interface SpanSpec {
  traceId: string;
  spanId?: string;
  parentSpanId?: string;
  name?: string;
  kind?: number;
  startMs?: number;
  endMs?: number;
  attributes?: Record<string, AttributeValue>;
  events?: { name: string; atMs: number; attributes?: Record<string, AttributeValue> }[];
  status?: { code: number; message?: string };
}

export function otlpSpan(spec: SpanSpec): Record<string, unknown> {
  return {
    traceId: spec.traceId,
    spanId: spec.spanId ?? newSpanId(),
    ...(spec.parentSpanId ? { parentSpanId: spec.parentSpanId } : {}),
    name: spec.name ?? "span",
    kind: spec.kind ?? 1,
    startTimeUnixNano: nanosAt(spec.startMs ?? 0),
    endTimeUnixNano: nanosAt(spec.endMs ?? 10),
    attributes: attributes(spec.attributes ?? {}),
    droppedAttributesCount: 0,
    events: (spec.events ?? []).map((event) => ({
      name: event.name,
      timeUnixNano: nanosAt(event.atMs),
      attributes: attributes(event.attributes ?? {}),
      droppedAttributesCount: 0,
    })),
    droppedEventsCount: 0,
    status: spec.status ?? { code: 0 },
    links: [],
    droppedLinksCount: 0,
    flags: 257,
  };
}

/** An ExportTraceServiceRequest with one resource and one instrumentation scope. */
export function exportRequest(
  spans: readonly Record<string, unknown>[],
  resource: Record<string, AttributeValue> = { "service.name": "support-bot" },
): { resourceSpans: unknown[] } {
  return {
    resourceSpans: [
      {
        resource: { attributes: attributes(resource), droppedAttributesCount: 0 },
        scopeSpans: [{ scope: { name: "test-scope", version: "1.0.0" }, spans }],
      },
    ],
  };
}
