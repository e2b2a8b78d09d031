import { randomBytes } from "node:crypto";
import { context, metrics, propagation, SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import { type DataPoint, type Histogram, MeterProvider, MetricReader } from "@opentelemetry/sdk-metrics";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { silentLogger } from "@svc/telemetry";
import { realInfra } from "@svc/testing";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Bus, BusRequest } from "./bus";
import { InProcessBus } from "./in-process";
import { NatsBus } from "./nats";

/** Reads the meter provider's current values on demand. */
class TestReader extends MetricReader {
  protected async onForceFlush(): Promise<void> {}
  protected async onShutdown(): Promise<void> {}
}

const spans = new InMemorySpanExporter();
const reader = new TestReader();
const tracer = (() => {
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] });
  trace.setGlobalTracerProvider(provider);
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  metrics.setGlobalMeterProvider(new MeterProvider({ readers: [reader] }));
  return provider.getTracer("test");
})();

const request: BusRequest = {
  context: { organizationId: "o", role: "member", actor: { kind: "apiKey", id: "k" }, requestId: "req-1" },
  input: {},
};

type Pair = { server: Bus; client: Bus; system: string; close(): Promise<void> };

const kinds: [string, () => Promise<Pair>][] = [
  [
    "in-process",
    async () => {
      const bus = new InProcessBus();
      return { server: bus, client: bus, system: "in-process", close: () => bus.close() };
    },
  ],
];
const infra = realInfra();
if (infra) {
  kinds.push([
    "nats",
    async () => {
      const prefix = `tel${randomBytes(4).toString("hex")}`;
      const open = () =>
        NatsBus.connect({ url: infra.natsUrl, name: "telemetry-test", prefix, logger: silentLogger() });
      const [server, client] = await Promise.all([open(), open()]);
      return {
        server,
        client,
        system: "nats",
        close: async () => void (await Promise.all([server.close(), client.close()])),
      };
    },
  ]);
}

/** The data points of one histogram or sum, by name, across every bus instance of this process. */
async function pointsOf(name: string): Promise<DataPoint<number | Histogram>[]> {
  const { resourceMetrics } = await reader.collect();
  return resourceMetrics.scopeMetrics
    .flatMap((scope) => scope.metrics)
    .filter((metric) => metric.descriptor.name === name)
    .flatMap((metric) => metric.dataPoints as DataPoint<number | Histogram>[]);
}

const countOf = (point: DataPoint<number | Histogram> | undefined) =>
  point === undefined ? 0 : typeof point.value === "number" ? point.value : point.value.count;

describe.each(kinds)("bus telemetry (%s)", (_name, open) => {
  let pair: Pair;
  let subject: string;
  beforeAll(async () => {
    pair = await open();
  });
  afterAll(async () => {
    await pair.close();
  });
  beforeEach(() => {
    spans.reset();
    subject = `svc.v1.telemetry.${randomBytes(4).toString("hex")}`;
  });

  const settle = () => new Promise((resolve) => setTimeout(resolve, 50));
  const byName = (name: string): ReadableSpan => {
    const found = spans.getFinishedSpans().find((span) => span.name === name);
    if (!found) throw new Error(`no span ${name}: ${spans.getFinishedSpans().map((s) => s.name)}`);
    return found;
  };
  const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;

  it("makes a CLIENT span for a request in a trace and the handler's SERVER span as its child", async () => {
    const sub = pair.server.serve(subject, async () => {
      tracer.startSpan("work").end();
      return { ok: true, data: null };
    });
    await settle();
    await tracer.startActiveSpan("caller", async (caller) => {
      await pair.client.request(subject, request);
      caller.end();
    });
    await settle();
    sub.unsubscribe();

    const caller = byName("caller");
    const client = byName(`request ${subject}`);
    const server = byName(`process ${subject}`);
    const work = byName("work");
    const traceId = caller.spanContext().traceId;
    expect([client, server, work].map((span) => span.spanContext().traceId)).toEqual([
      traceId,
      traceId,
      traceId,
    ]);
    expect(parentOf(client)).toBe(caller.spanContext().spanId);
    expect(parentOf(server)).toBe(client.spanContext().spanId);
    expect(parentOf(work)).toBe(server.spanContext().spanId);
    expect(client.kind).toBe(SpanKind.CLIENT);
    expect(server.kind).toBe(SpanKind.SERVER);
    expect(client.attributes).toEqual({
      "messaging.system": pair.system,
      "messaging.operation.type": "send",
      "messaging.operation.name": "request",
      "messaging.destination.name": subject,
      "svc.request_id": "req-1",
      "svc.outcome": "ok",
    });
    expect(server.attributes).toMatchObject({
      "messaging.operation.type": "process",
      "messaging.destination.name": subject,
      "svc.request_id": "req-1",
      "svc.outcome": "ok",
    });
    expect(server.status.code).toBe(SpanStatusCode.UNSET);
  });

  it("makes no spans for a request outside any trace", async () => {
    const sub = pair.server.serve(subject, async () => ({ ok: true, data: null }));
    await settle();
    expect(await pair.client.request(subject, request)).toEqual({ ok: true, data: null });
    await settle();
    sub.unsubscribe();
    expect(spans.getFinishedSpans()).toEqual([]);
  });

  it("marks platform failures as span errors, and a client's mistake not", async () => {
    const failing = pair.server.serve(`${subject}.failing`, async () => ({
      ok: false,
      error: { code: "internal_error", message: "Internal error" },
    }));
    const missing = pair.server.serve(`${subject}.missing`, async () => ({
      ok: false,
      error: { code: "not_found", message: "Row not found" },
    }));
    await settle();
    await tracer.startActiveSpan("caller", async (caller) => {
      await pair.client.request(`${subject}.failing`, request);
      await pair.client.request(`${subject}.missing`, request);
      caller.end();
    });
    await settle();
    failing.unsubscribe();
    missing.unsubscribe();

    for (const name of [`request ${subject}.failing`, `process ${subject}.failing`]) {
      expect(byName(name).status.code).toBe(SpanStatusCode.ERROR);
      expect(byName(name).attributes).toMatchObject({
        "svc.outcome": "internal_error",
        "error.type": "internal_error",
      });
    }
    for (const name of [`request ${subject}.missing`, `process ${subject}.missing`]) {
      expect(byName(name).status.code).toBe(SpanStatusCode.UNSET);
      expect(byName(name).attributes["svc.outcome"]).toBe("not_found");
      expect(byName(name).attributes["error.type"]).toBeUndefined();
    }
  });

  it("measures requests by subject and outcome on both sides, and counts timeouts", async () => {
    const ok = pair.server.serve(`${subject}.ok`, async () => ({ ok: true, data: null }));
    const slow = pair.server.serve(
      `${subject}.slow`,
      () => new Promise((resolve) => setTimeout(() => resolve({ ok: true, data: null }), 500)),
    );
    await settle();
    await pair.client.request(`${subject}.ok`, request);
    await pair.client.request(`${subject}.ok`, request);
    expect(await pair.client.request(`${subject}.slow`, request, { timeoutMs: 100 })).toMatchObject({
      ok: false,
      error: { code: "upstream_timeout" },
    });
    await new Promise((resolve) => setTimeout(resolve, 600));
    ok.unsubscribe();
    slow.unsubscribe();

    const find = (points: DataPoint<number | Histogram>[], destination: string, outcome: string) =>
      points.find(
        (point) =>
          point.attributes["messaging.destination.name"] === destination &&
          point.attributes["svc.outcome"] === outcome &&
          point.attributes["messaging.system"] === pair.system,
      );
    const sent = await pointsOf("messaging.client.operation.duration");
    const handled = await pointsOf("messaging.process.duration");
    const timeouts = await pointsOf("svc.bus.client.timeouts");
    expect(countOf(find(sent, `${subject}.ok`, "ok"))).toBe(2);
    expect(countOf(find(handled, `${subject}.ok`, "ok"))).toBe(2);
    expect(countOf(find(sent, `${subject}.slow`, "upstream_timeout"))).toBe(1);
    expect(find(sent, `${subject}.slow`, "upstream_timeout")?.attributes["error.type"]).toBe(
      "upstream_timeout",
    );
    expect(countOf(find(timeouts, `${subject}.slow`, "upstream_timeout"))).toBe(1);
    // The handler did finish, late: its own side records what it did.
    expect(countOf(find(handled, `${subject}.slow`, "ok"))).toBe(1);
  });
});
