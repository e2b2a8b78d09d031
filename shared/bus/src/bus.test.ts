import { randomBytes } from "node:crypto";
import { Socket } from "node:net";
import { context, propagation, ROOT_CONTEXT, TraceFlags, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import { silentLogger } from "@svc/telemetry";
import { realInfra } from "@svc/testing";
import type { QueuedIterator } from "nats";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Bus, BusRequest } from "./bus";
import { InProcessBus } from "./in-process";
import { NatsBus } from "./nats";

const request: BusRequest = {
  context: { organizationId: "o", role: "member", actor: { kind: "apiKey", id: "k" }, requestId: "r" },
  input: { n: 1 },
};

type Pair = { server: Bus; client: Bus; other: Bus; close(): Promise<void> };

async function natsPair(): Promise<Pair> {
  const infra = realInfra();
  if (!infra) throw new Error("unreachable");
  const prefix = `bus${randomBytes(4).toString("hex")}`;
  const open = () =>
    NatsBus.connect({ url: infra.natsUrl, name: "bus-test", prefix, logger: silentLogger() });
  const [server, client, other] = await Promise.all([open(), open(), open()]);
  return {
    server,
    client,
    other,
    close: async () => void (await Promise.all([server.close(), client.close(), other.close()])),
  };
}

async function inProcessPair(): Promise<Pair> {
  const bus = new InProcessBus();
  return { server: bus, client: bus, other: bus, close: () => bus.close() };
}

/** The suite's pair, opened before its tests and closed after them. */
function pairForSuite(open: () => Promise<Pair>): () => Pair {
  let pair: Pair | undefined;
  beforeAll(async () => {
    pair = await open();
  });
  afterAll(async () => {
    await pair?.close();
  });
  return () => {
    if (!pair) throw new Error("the pair opens before the suite's tests");
    return pair;
  };
}

const kinds: [string, () => Promise<Pair>][] = [["in-process", inProcessPair]];
if (realInfra()) kinds.push(["nats", natsPair]);

describe.each(kinds)("bus (%s)", (_name, open) => {
  const pair = pairForSuite(open);

  it("answers 503 service_unavailable when nobody serves the subject", async () => {
    const reply = await pair().client.request("svc.v1.nobody.home", request, { timeoutMs: 2_000 });
    expect(reply).toMatchObject({ ok: false, error: { code: "service_unavailable" } });
  });

  it("answers 504 upstream_timeout when the service is too slow, without hanging", async () => {
    const sub = pair().server.serve(
      "svc.v1.slow.op",
      () => new Promise((resolve) => setTimeout(() => resolve({ ok: true, data: 1 }), 1_000)),
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    const started = Date.now();
    const reply = await pair().client.request("svc.v1.slow.op", request, { timeoutMs: 200 });
    expect(reply).toMatchObject({ ok: false, error: { code: "upstream_timeout" } });
    expect(Date.now() - started).toBeLessThan(900);
    sub.unsubscribe();
  });

  it("carries a reply's body as bytes beside its JSON, and a reply without one as before", async () => {
    const body = new Uint8Array([0x22, 0x00, 0xff, 0x7b, 0x0a, 0xe6, 0x97, 0xa5]);
    const sub = pair().server.serve("svc.v1.bytes", async (req) =>
      (req.input as { n: number }).n === 1
        ? { ok: true, data: { piece: 1 }, body }
        : { ok: true, data: "none" },
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    const reply = await pair().client.request("svc.v1.bytes", request);
    expect(reply).toEqual({ ok: true, data: { piece: 1 }, body: expect.any(Uint8Array) });
    expect(reply.ok && [...(reply.body ?? [])]).toEqual([...body]);
    expect(reply.ok && reply.body).not.toBe(body); // copied, as it would cross a wire
    expect(await pair().client.request("svc.v1.bytes", { ...request, input: { n: 2 } })).toEqual({
      ok: true,
      data: "none",
    });
    sub.unsubscribe();
  });

  it("carries the request as JSON and returns the handler's reply", async () => {
    const sub = pair().server.serve("svc.v1.echo", async (req) => ({
      ok: true,
      data: { got: req.input, ctx: req.context.requestId },
    }));
    await new Promise((resolve) => setTimeout(resolve, 50));
    const reply = await pair().client.request("svc.v1.echo", request);
    expect(reply).toEqual({ ok: true, data: { got: { n: 1 }, ctx: "r" } });
    sub.unsubscribe();
  });

  it("spreads requests over the replicas of a queue group, each request to exactly one", async () => {
    const seen = { a: 0, b: 0 };
    const replica = (name: "a" | "b") => async () => {
      seen[name] += 1;
      return { ok: true as const, data: name };
    };
    const subA = pair().server.serve("svc.v1.shared", replica("a"));
    const subB = pair().other.serve("svc.v1.shared", replica("b"));
    await new Promise((resolve) => setTimeout(resolve, 100));
    const replies = await Promise.all(
      Array.from({ length: 60 }, () => pair().client.request("svc.v1.shared", request)),
    );
    expect(replies.every((r) => r.ok)).toBe(true);
    expect(seen.a + seen.b).toBe(60);
    expect(seen.a).toBeGreaterThan(0);
    expect(seen.b).toBeGreaterThan(0);
    subA.unsubscribe();
    subB.unsubscribe();
  });

  it("delivers published events to every subscriber", async () => {
    const got: unknown[] = [];
    const s1 = pair().server.subscribe("svc.v1.events.x", (p) => got.push(["s", p]));
    const s2 = pair().other.subscribe("svc.v1.events.x", (p) => got.push(["o", p]));
    await new Promise((resolve) => setTimeout(resolve, 100));
    pair().client.publish("svc.v1.events.x", { id: 7 });
    await expect.poll(() => got.length).toBe(2);
    s1.unsubscribe();
    s2.unsubscribe();
  });

  it("answers a service's pings while it is announced, and 503 service_unavailable before and after", async () => {
    const name = `pinged-${randomBytes(3).toString("hex")}`;
    const unavailable = { ok: false, error: { code: "service_unavailable" } };
    expect(await pair().client.ping(name, 1_000)).toMatchObject(unavailable);
    const announcement = await pair().server.announce({ name, version: "1.2.3", description: "pinged" });
    expect(await pair().client.ping(name, 1_000)).toEqual({ ok: true, data: null });
    await announcement.stop();
    expect(await pair().client.ping(name, 1_000)).toMatchObject(unavailable);
  });

  it("carries W3C trace context from the requester to the handler", async () => {
    propagation.setGlobalPropagator(new W3CTraceContextPropagator());
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    const traceId = randomBytes(16).toString("hex");
    let seenTraceparent: string | undefined;
    const sub = pair().server.serve("svc.v1.traced", async () => {
      const carrier: Record<string, string> = {};
      propagation.inject(context.active(), carrier);
      seenTraceparent = carrier.traceparent;
      return { ok: true, data: null };
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const span = trace.wrapSpanContext({
      traceId,
      spanId: randomBytes(8).toString("hex"),
      traceFlags: TraceFlags.SAMPLED,
    });
    await context.with(trace.setSpan(ROOT_CONTEXT, span), () =>
      pair().client.request("svc.v1.traced", request),
    );
    expect(seenTraceparent).toContain(traceId);
    sub.unsubscribe();
    propagation.disable();
    context.disable();
  });
});

describe.skipIf(!realInfra())("bus (nats): writes to the server", () => {
  const pair = pairForSuite(natsPair);

  it("sends the requests made in one turn of the event loop in one write, each answered", async () => {
    const sub = pair().server.serve("svc.v1.turn", async (req) => ({ ok: true, data: req.input }));
    await new Promise((resolve) => setTimeout(resolve, 50));
    // The requests an HTTP server makes while reading its sockets: each in a callback of its own.
    const written: string[] = [];
    const write = Socket.prototype.write;
    const spy = vi.spyOn(Socket.prototype, "write").mockImplementation(function (
      this: Socket,
      ...args: Parameters<Socket["write"]>
    ) {
      written.push(Buffer.from(args[0] as Uint8Array).toString("latin1"));
      return write.apply(this, args);
    });
    const replies = await new Promise<Promise<unknown>[]>((resolve) => {
      const sent: Promise<unknown>[] = [];
      for (let n = 0; n < 50; n++) {
        setImmediate(() => {
          sent.push(pair().client.request("svc.v1.turn", { ...request, input: { n } }));
          if (sent.length === 50) resolve(sent);
        });
      }
    });
    expect(await Promise.all(replies)).toEqual(
      Array.from({ length: 50 }, (_, n) => ({ ok: true, data: { n } })),
    );
    spy.mockRestore();
    const withRequests = written.filter((chunk) => chunk.includes(".svc.v1.turn "));
    expect(withRequests).toHaveLength(1);
    expect(withRequests[0]?.match(/\.svc\.v1\.turn /g)).toHaveLength(50);
    sub.unsubscribe();
  });
});

describe.skipIf(!realInfra())("bus (nats): messages larger than the server takes", () => {
  const pair = pairForSuite(natsPair);
  const twoMiB = "x".repeat(2 * 1024 * 1024);

  it("carries a reply larger than a message, in parts, whole and in order, and goes on serving", async () => {
    // Two replies at once, each of several parts, so that parts of one never join the other.
    const big = (n: number) => `${n}`.repeat(2 * 1024 * 1024 + 12_345);
    const sub = pair().server.serve("svc.v1.big", async (req) => {
      const { n } = req.input as { n: number };
      return { ok: true, data: n === 0 ? "small" : big(n) };
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const [one, two] = await Promise.all(
      [1, 2].map((n) =>
        pair().client.request("svc.v1.big", { ...request, input: { n } }, { timeoutMs: 10_000 }),
      ),
    );
    expect(one).toEqual({ ok: true, data: big(1) });
    expect(two).toEqual({ ok: true, data: big(2) });
    expect(await pair().client.request("svc.v1.big", { ...request, input: { n: 0 } })).toEqual({
      ok: true,
      data: "small",
    });
    sub.unsubscribe();
  });

  it("carries a body larger than a message, in parts, with its JSON", async () => {
    const body = new Uint8Array(3 * 1024 * 1024 + 777).map((_, index) => index % 251);
    const sub = pair().server.serve("svc.v1.big-body", async () => ({
      ok: true,
      data: { after: "r9", text: 'é"' },
      body,
    }));
    await new Promise((resolve) => setTimeout(resolve, 50));
    const reply = await pair().client.request("svc.v1.big-body", request, { timeoutMs: 10_000 });
    if (!reply.ok) throw new Error(reply.error.message);
    expect(reply.data).toEqual({ after: "r9", text: 'é"' });
    expect(Buffer.from(reply.body ?? []).equals(Buffer.from(body))).toBe(true);
    sub.unsubscribe();
  });

  it("times out a reply whose parts stop coming, without hanging", async () => {
    const sub = pair().server.serve(
      "svc.v1.slow",
      () => new Promise((resolve) => setTimeout(() => resolve({ ok: true, data: null }), 1_000)),
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    const started = performance.now();
    const reply = await pair().client.request("svc.v1.slow", request, { timeoutMs: 300 });
    expect(reply).toMatchObject({ ok: false, error: { code: "upstream_timeout" } });
    expect(performance.now() - started).toBeLessThan(2_000);
    sub.unsubscribe();
  });

  it("refuses a request too large to send as payload_too_large, not as a service that is not answering", async () => {
    let served = 0;
    const sub = pair().server.serve("svc.v1.sink", async () => {
      served++;
      return { ok: true, data: null };
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const reply = await pair().client.request("svc.v1.sink", { ...request, input: twoMiB });
    expect(reply).toEqual({
      ok: false,
      error: {
        code: "payload_too_large",
        message: expect.stringMatching(
          /^The request is \d+ bytes once it carries its context, more than the \d+ bytes/,
        ),
      },
    });
    expect(served).toBe(0);
    sub.unsubscribe();
  });
});

describe.skipIf(!realInfra())("bus (nats): the services protocol", () => {
  const pair = pairForSuite(natsPair);
  let prefix: string;
  beforeAll(() => {
    prefix = (pair().server as NatsBus).prefix as string;
  });

  /** Every answer, keeping this run's services only: `$SRV.*` subjects are global to the server. */
  async function answersOf<T extends { name: string }>(answers: Promise<QueuedIterator<T>>): Promise<T[]> {
    const mine: T[] = [];
    for await (const answer of await answers) if (answer.name.startsWith(`${prefix}-`)) mine.push(answer);
    return mine.sort((a, b) => a.name.localeCompare(b.name));
  }

  it("lists, pings, describes and counts announced services for the standard tooling", async () => {
    const [reader, auth] = await Promise.all([
      pair().server.announce({ name: "reader", version: "0.1.0", description: "Every query" }),
      pair().other.announce({ name: "auth", version: "0.1.0", description: "API keys" }),
    ]);
    // Announcing takes no request: a subject served on the bus goes on answering as before.
    const sub = pair().server.serve("svc.v1.echo", async (req) => ({ ok: true, data: req.input }));
    const services = (pair().client as NatsBus).connection.services.client();

    const pings = await answersOf(services.ping());
    expect(pings.map(({ name, version }) => ({ name, version }))).toEqual([
      { name: `${prefix}-auth`, version: "0.1.0" },
      { name: `${prefix}-reader`, version: "0.1.0" },
    ]);
    const [info] = await answersOf(services.info(`${prefix}-reader`));
    expect(info).toMatchObject({
      name: `${prefix}-reader`,
      id: pings[1]?.id,
      description: "Every query",
      metadata: { bus_prefix: prefix },
      endpoints: [],
    });
    const [stats] = await answersOf(services.stats(`${prefix}-reader`));
    expect(stats).toMatchObject({ name: `${prefix}-reader`, id: pings[1]?.id, endpoints: [] });
    expect(Date.parse(stats?.started ?? "")).toBeLessThanOrEqual(Date.now());
    expect(await pair().client.request("svc.v1.echo", request)).toEqual({ ok: true, data: { n: 1 } });

    await Promise.all([reader.stop(), auth.stop()]);
    // Nobody left to answer: the server says so at once (503), to the tooling as to the bus.
    await expect(answersOf(services.ping(`${prefix}-reader`))).rejects.toThrow("503");
    expect(await pair().client.ping("reader", 1_000)).toMatchObject({ ok: false });
    sub.unsubscribe();
  }, 20_000);
});
