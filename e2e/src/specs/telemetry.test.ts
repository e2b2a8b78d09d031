import { randomBytes } from "node:crypto";
import { realInfra } from "@svc/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Client, client } from "../http";
import { type OtlpReceiver, type ReceivedSpan, startOtlpReceiver } from "../otlp-receiver";
import { type Platform, startPlatform, waitFor } from "../platform";

const infra = realInfra();

const SERVER = 2;
const CLIENT = 3;
const PG_SCOPE = "@opentelemetry/instrumentation-pg";

describe.runIf(infra)("tracing, metrics and logs across the distributed platform", () => {
  let receiver: OtlpReceiver;
  let platform: Platform;
  let api: Client;
  let rows: string;

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    platform = await startPlatform({
      env: {
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
        OTEL_BSP_SCHEDULE_DELAY: "100",
        OTEL_METRIC_EXPORT_INTERVAL: "500",
        LOG_LEVEL: "info",
      },
    });
    api = client(platform.baseUrl, platform.ownerKey);
    const project = (await api.post<{ slug: string }>("/v1/projects", { name: "Traced" })).body.slug;
    const dataset = await api.post<{ slug: string }>(`/v1/projects/${project}/datasets`, { name: "Traced" });
    rows = `/v1/projects/${project}/datasets/${dataset.body.slug}/rows`;
    expect((await api.post(rows, { rows: [{ id: "r1", input: "q" }] })).status).toBe(201);
  });
  afterAll(async () => {
    await platform?.stop();
    await receiver?.close();
  });

  /** Waits until the trace has a span that `done` accepts, then returns all of the trace's spans. */
  async function traceOf(traceId: string, done: (spans: ReceivedSpan[]) => boolean): Promise<ReceivedSpan[]> {
    return waitFor(`the spans of trace ${traceId}`, async () => {
      const spans = receiver.spans.filter((span) => span.traceId === traceId);
      return done(spans) ? spans : undefined;
    });
  }

  const childrenOf = (spans: ReceivedSpan[], parent: ReceivedSpan) =>
    spans.filter((span) => span.parentSpanId === parent.spanId);

  it("follows one request gateway → bus → dataset-writer → PostgreSQL in one trace, each span the child of the one before", async () => {
    const traceId = randomBytes(16).toString("hex");
    const callerSpanId = randomBytes(8).toString("hex");
    const requestId = `telemetry-${randomBytes(4).toString("hex")}`;
    const edit = await api.patch(
      `${rows}/r1`,
      { expectedOutput: { answer: "traced" } },
      { traceparent: `00-${traceId}-${callerSpanId}-01`, "x-request-id": requestId },
    );
    expect(edit.status).toBe(200);

    const subject = "svc.v1.datasets.rows.update";
    // Each process exports its spans once they end, the outermost last.
    const spans = await traceOf(traceId, (all) =>
      ["gateway", "dataset-writer"].every((service) =>
        all.some((span) => span.service === service && span.kind === SERVER),
      ),
    );

    const http = spans.filter((span) => span.service === "gateway" && span.kind === SERVER);
    expect(http).toHaveLength(1);
    const [gatewaySpan] = http as [ReceivedSpan];
    expect(gatewaySpan.parentSpanId).toBe(callerSpanId);
    expect(gatewaySpan.name).toBe("PATCH /v1/projects/:projectSlug/datasets/:datasetSlug/rows/:rowId");
    expect(gatewaySpan.attributes).toMatchObject({
      "http.route": "/v1/projects/:projectSlug/datasets/:datasetSlug/rows/:rowId",
      "http.response.status_code": 200,
      "svc.request_id": requestId,
    });

    const busClient = childrenOf(spans, gatewaySpan).find((span) => span.name === `request ${subject}`);
    expect(busClient).toMatchObject({
      service: "gateway",
      kind: CLIENT,
      attributes: {
        "messaging.system": "nats",
        "messaging.destination.name": subject,
        "messaging.operation.type": "send",
        "svc.request_id": requestId,
        "svc.outcome": "ok",
      },
    });

    const handler = childrenOf(spans, busClient as ReceivedSpan);
    expect(handler).toHaveLength(1);
    expect(handler[0]).toMatchObject({
      service: "dataset-writer",
      name: `process ${subject}`,
      kind: SERVER,
      attributes: { "messaging.destination.name": subject, "svc.outcome": "ok", "svc.request_id": requestId },
    });

    const sql = childrenOf(spans, handler[0] as ReceivedSpan);
    expect(sql.length).toBeGreaterThan(0);
    expect(sql.every((span) => span.scope === PG_SCOPE && span.kind === CLIENT)).toBe(true);
    expect(sql.map((span) => span.attributes["db.query.text"] ?? span.attributes["db.statement"])).toEqual(
      expect.arrayContaining([expect.stringMatching(/UPDATE datasets d SET current_version/)]),
    );

    // Nothing hangs loose: every span's parent is in the trace, or is the caller's own span.
    const ids = new Set([callerSpanId, ...spans.map((span) => span.spanId)]);
    expect(spans.filter((span) => !ids.has(span.parentSpanId))).toEqual([]);
  });

  it("starts a trace at the gateway when the caller sends none, and the reader's spans join it", async () => {
    const requestId = `telemetry-${randomBytes(4).toString("hex")}`;
    expect((await api.get(`${rows}/r1`, { "x-request-id": requestId })).status).toBe(200);

    const root = await waitFor("the gateway's span", async () =>
      receiver.spans.find(
        (span) =>
          span.service === "gateway" &&
          span.kind === SERVER &&
          span.attributes["svc.request_id"] === requestId,
      ),
    );
    expect(root.parentSpanId).toBe("");
    const spans = await traceOf(root.traceId, (all) =>
      all.some((span) => span.service === "reader" && span.kind === SERVER),
    );
    const handler = spans.find((span) => span.service === "reader" && span.kind === SERVER);
    expect(handler?.name).toBe("process svc.v1.datasets.rows.get");
    const busClient = spans.find((span) => span.spanId === handler?.parentSpanId);
    expect(busClient).toMatchObject({ service: "gateway", kind: CLIENT, parentSpanId: root.spanId });
  });

  it("writes the request id and the trace's ids on the gateway's log line of each request", async () => {
    const traceId = randomBytes(16).toString("hex");
    const requestId = `telemetry-${randomBytes(4).toString("hex")}`;
    await api.get(`${rows}/r1`, {
      traceparent: `00-${traceId}-${randomBytes(8).toString("hex")}-01`,
      "x-request-id": requestId,
    });
    const gateway = platform.processes.find((proc) => proc.name === "gateway");
    const line = await waitFor("the gateway's log line", async () =>
      gateway?.output
        .join("")
        .split("\n")
        .filter((text) => text.includes(requestId))
        .map((text) => JSON.parse(text) as Record<string, unknown>)
        .find((entry) => entry.msg === "request"),
    );
    const spans = await traceOf(traceId, (all) =>
      all.some((span) => span.service === "gateway" && span.kind === SERVER),
    );
    const gatewaySpan = spans.find((span) => span.service === "gateway" && span.kind === SERVER);
    expect(line).toMatchObject({
      requestId,
      status: 200,
      trace_id: traceId,
      span_id: gatewaySpan?.spanId,
      trace_flags: "01",
    });
  });

  it("exports request counts, latencies and outcomes of the gateway and of each service", async () => {
    expect((await api.get(`${rows}/nobody`)).status).toBe(404);
    const has = (service: string, metric: string, attributes: Record<string, unknown>) =>
      receiver.points.some(
        (point) =>
          point.service === service &&
          point.metric === metric &&
          point.value > 0 &&
          Object.entries(attributes).every(([key, value]) => point.attributes[key] === value),
      );
    await waitFor("the metrics", async () =>
      [
        has("gateway", "http.server.request.duration", {
          "http.route": "/v1/projects/:projectSlug/datasets/:datasetSlug/rows/:rowId",
          "http.response.status_code": 404,
        }),
        has("gateway", "messaging.client.operation.duration", {
          "messaging.destination.name": "svc.v1.datasets.rows.update",
          "svc.outcome": "ok",
        }),
        has("reader", "messaging.process.duration", {
          "messaging.destination.name": "svc.v1.datasets.rows.get",
          "svc.outcome": "not_found",
        }),
        has("dataset-writer", "messaging.process.duration", {
          "messaging.destination.name": "svc.v1.datasets.rows.update",
          "svc.outcome": "ok",
        }),
        has("dataset-writer", "db.client.operation.duration", {}),
      ].every(Boolean)
        ? true
        : undefined,
    );
  });
});
