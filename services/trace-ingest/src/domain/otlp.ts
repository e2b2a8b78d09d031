import {
  type Cell,
  type IngestTracesBody,
  LONE_SURROGATE,
  type OtlpAnyValue,
  type OtlpKeyValue,
  type OtlpSpan,
} from "@svc/contracts";

export type Attributes = Record<string, Cell>;

/** A span as the platform keeps it: OTLP's fields with attributes as plain JSON. */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string | null;
  name: string;
  kind: number;
  startNs: string;
  endNs: string;
  statusCode: number;
  statusMessage: string | null;
  attributes: Attributes;
  resourceAttributes: Attributes;
  scope: { name: string; version: string | null } | null;
  events: { name: string; timeUnixNano: string; attributes: Attributes }[];
  links: { traceId: string; spanId: string; attributes: Attributes }[];
}

/**
 * Every span of an export request, with its resource and scope folded in. A span sent twice in one
 * request counts once: the last copy wins, as it would across requests.
 */
export function receivedSpans(body: IngestTracesBody): ReceivedSpan[] {
  const byId = new Map<string, ReceivedSpan>();
  for (const resourceSpans of body.resourceSpans) {
    const resourceAttributes = toAttributes(resourceSpans.resource?.attributes);
    for (const scopeSpans of resourceSpans.scopeSpans) {
      const scope = scopeSpans.scope?.name
        ? { name: clean(scopeSpans.scope.name), version: optionalText(scopeSpans.scope.version) }
        : null;
      for (const span of scopeSpans.spans) {
        const received = toReceivedSpan(span, resourceAttributes, scope);
        byId.delete(`${received.traceId}/${received.spanId}`);
        byId.set(`${received.traceId}/${received.spanId}`, received);
      }
    }
  }
  return [...byId.values()];
}

function toReceivedSpan(
  span: OtlpSpan,
  resourceAttributes: Attributes,
  scope: ReceivedSpan["scope"],
): ReceivedSpan {
  return {
    traceId: span.traceId,
    spanId: span.spanId,
    parentSpanId: span.parentSpanId ? span.parentSpanId : null,
    name: clean(span.name),
    kind: span.kind,
    startNs: span.startTimeUnixNano,
    endNs: span.endTimeUnixNano,
    statusCode: span.status?.code ?? 0,
    statusMessage: optionalText(span.status?.message),
    attributes: toAttributes(span.attributes),
    resourceAttributes,
    scope,
    events: (span.events ?? []).map((event) => ({
      name: clean(event.name),
      timeUnixNano: event.timeUnixNano,
      attributes: toAttributes(event.attributes),
    })),
    links: (span.links ?? []).map((link) => ({
      traceId: link.traceId,
      spanId: link.spanId,
      attributes: toAttributes(link.attributes),
    })),
  };
}

/**
 * OTLP's key-value list as an object; a key repeated keeps its last value. Built from entries, so a
 * key named `__proto__` is an attribute like any other rather than the object's prototype.
 */
function toAttributes(list: readonly OtlpKeyValue[] | undefined): Attributes {
  return Object.fromEntries((list ?? []).map(({ key, value }) => [clean(key), toJson(value)]));
}

/** An OTLP AnyValue as the JSON value it stands for. */
function toJson(value: OtlpAnyValue | undefined): Cell {
  if (value === undefined) return null;
  if (value.stringValue !== undefined) return clean(value.stringValue);
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.intValue !== undefined) return toInteger(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.bytesValue !== undefined) return value.bytesValue;
  if (value.arrayValue !== undefined) return (value.arrayValue.values ?? []).map(toJson);
  if (value.kvlistValue !== undefined) return toAttributes(value.kvlistValue.values);
  return null;
}

/** An int64 as a JSON number when that is exact, else as its decimal string. */
function toInteger(value: string | number): number | string {
  if (typeof value === "number") return value;
  const number = Number(value);
  return Number.isSafeInteger(number) ? number : value;
}

const optionalText = (value: string | undefined): string | null =>
  value === undefined || value === "" ? null : clean(value);

/** Characters PostgreSQL text and jsonb refuse (U+0000, lone surrogates) become U+FFFD. */
const clean = (text: string): string => text.replaceAll("\u0000", "\uFFFD").replace(LONE_SURROGATE, "\uFFFD");
