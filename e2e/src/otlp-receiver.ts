import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

/** One span as an OTLP/HTTP JSON export carries it, flattened with its resource and scope. */
export interface ReceivedSpan {
  service: string;
  /** The exporting process's `service.instance.id` resource attribute, "" when it sets none. */
  instance: string;
  scope: string;
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  /** OTLP span kind: 1 internal, 2 server, 3 client, 4 producer, 5 consumer. */
  kind: number;
  attributes: Record<string, unknown>;
}

/** One data point of a metric, flattened with its service and metric name. */
export interface ReceivedPoint {
  service: string;
  metric: string;
  attributes: Record<string, unknown>;
  /** The histogram's count or the sum's value. */
  value: number;
}

export interface OtlpReceiver {
  /** For OTEL_EXPORTER_OTLP_ENDPOINT: the exporters append /v1/traces and /v1/metrics. */
  url: string;
  spans: ReceivedSpan[];
  points: ReceivedPoint[];
  close(): Promise<void>;
}

interface KeyValue {
  key: string;
  value: Record<string, unknown>;
}
interface Resource {
  resource?: { attributes?: KeyValue[] };
}
interface SpansExport {
  resourceSpans?: (Resource & {
    scopeSpans?: {
      scope?: { name?: string };
      spans?: {
        traceId: string;
        spanId: string;
        parentSpanId?: string;
        name: string;
        kind: number;
        attributes?: KeyValue[];
      }[];
    }[];
  })[];
}
interface DataPoint {
  attributes?: KeyValue[];
  count?: number | string;
  asInt?: number | string;
  asDouble?: number;
}
interface MetricsExport {
  resourceMetrics?: (Resource & {
    scopeMetrics?: {
      metrics?: {
        name: string;
        histogram?: { dataPoints?: DataPoint[] };
        sum?: { dataPoints?: DataPoint[] };
        gauge?: { dataPoints?: DataPoint[] };
      }[];
    }[];
  })[];
}

/** A tiny OpenTelemetry collector for tests: accepts OTLP/HTTP JSON and keeps what it got. */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const points: ReceivedPoint[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as unknown;
        if (request.url === "/v1/traces") spans.push(...flattenSpans(body as SpansExport));
        if (request.url === "/v1/metrics") points.push(...flattenPoints(body as MetricsExport));
        response.writeHead(200, { "content-type": "application/json" }).end("{}");
      } catch {
        response.writeHead(400).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    points,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

function flattenSpans(body: SpansExport): ReceivedSpan[] {
  return (body.resourceSpans ?? []).flatMap((resourceSpans) => {
    const resource = attributesOf(resourceSpans.resource?.attributes);
    const service = String(resource["service.name"]);
    const instance = String(resource["service.instance.id"] ?? "");
    return (resourceSpans.scopeSpans ?? []).flatMap((scopeSpans) =>
      (scopeSpans.spans ?? []).map((span) => ({
        service,
        instance,
        scope: scopeSpans.scope?.name ?? "",
        traceId: span.traceId,
        spanId: span.spanId,
        parentSpanId: span.parentSpanId ?? "",
        name: span.name,
        kind: span.kind,
        attributes: attributesOf(span.attributes),
      })),
    );
  });
}

function flattenPoints(body: MetricsExport): ReceivedPoint[] {
  return (body.resourceMetrics ?? []).flatMap((resourceMetrics) => {
    const service = String(attributesOf(resourceMetrics.resource?.attributes)["service.name"]);
    return (resourceMetrics.scopeMetrics ?? []).flatMap((scopeMetrics) =>
      (scopeMetrics.metrics ?? []).flatMap((metric) => {
        const dataPoints = metric.histogram?.dataPoints ?? metric.sum?.dataPoints ?? metric.gauge?.dataPoints;
        return (dataPoints ?? []).map((point) => ({
          service,
          metric: metric.name,
          attributes: attributesOf(point.attributes),
          value: Number(point.count ?? point.asInt ?? point.asDouble ?? 0),
        }));
      }),
    );
  });
}

function attributesOf(list: KeyValue[] | undefined): Record<string, unknown> {
  return Object.fromEntries(
    (list ?? []).map(({ key, value }) => [
      key,
      value.stringValue ?? value.intValue ?? value.doubleValue ?? value.boolValue ?? value,
    ]),
  );
}
