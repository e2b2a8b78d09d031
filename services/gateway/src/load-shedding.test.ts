import { Writable } from "node:stream";
import { createLogger, type Logger, silentLogger } from "@svc/telemetry";
import Fastify, { type FastifyInstance } from "fastify";
import { afterEach, describe, expect, it } from "vitest";
import { LoadShedder } from "./load-shedding";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("shedding by count and by queueing time", () => {
  let app: FastifyInstance;
  let base: string;

  async function start(
    maxQueueMs: number,
    maxInFlight = 1_000,
    logger: Logger = silentLogger(),
    maxTransfers = 1_000,
  ) {
    const shedder = new LoadShedder({ maxInFlight, maxTransfers, maxQueueMs }, logger);
    app = Fastify({ serverFactory: shedder.serverFactory() });
    app.addHook("onClose", async () => shedder.close());
    app.get("/slow", async () => {
      await sleep(1_500);
      return { ok: true };
    });
    // A file transfer, as long as its file: an export.
    app.get("/v1/datasets/answers/export", async () => {
      await sleep(1_500);
      return "id,input\n";
    });
    // A service that does one thing at a time, 10 ms each: what a burst above capacity meets.
    let busyUntil = 0;
    app.get("/queued", async () => {
      busyUntil = Math.max(busyUntil, performance.now()) + 10;
      await sleep(busyUntil - performance.now());
      return { ok: true };
    });
    app.get("/readyz", async () => ({ ok: true }));
    app.get("/fast", async () => ({ ok: true }));
    base = await app.listen({ port: 0, host: "127.0.0.1" });
  }
  afterEach(async () => {
    await app?.close();
  });

  /**
   * Requests to `path` started every 5 ms for `ms`, whether or not earlier ones were answered (a client
   * that waits for each would stand in the queue it is meant to observe): their statuses and refusals.
   */
  async function poll(ms: number, path = "/fast") {
    const sent: Promise<Response>[] = [];
    for (const until = performance.now() + ms; performance.now() < until; await sleep(5)) {
      sent.push(fetch(`${base}${path}`));
    }
    const responses = await Promise.all(sent);
    const refusals = await Promise.all(
      responses
        .filter((response) => response.status === 503)
        .map(async (response) => ({
          error: ((await response.json()) as { error: string }).error,
          retryAfter: response.headers.get("retry-after"),
        })),
    );
    return { statuses: responses.map((response) => response.status), refusals };
  }

  it("refuses new requests while those taken wait in a queue longer than the bound, then takes them again", async () => {
    await start(100);
    // 80 at once: the last waits 800 ms; from about the 10th on, each waits more than 100 ms.
    const burst = Promise.all(Array.from({ length: 80 }, () => fetch(`${base}/queued`)));
    await sleep(250);
    const { refusals } = await poll(300, "/queued");
    expect(refusals.length).toBeGreaterThan(0);
    expect(refusals[0]?.error).toMatch(
      /^The platform is behind: requests waited \d+ ms, more than 100 ms; retry/,
    );
    expect(refusals[0]?.retryAfter).toBe("1");
    await burst;
    // Taken again once the queue is gone: the requests it refused do not count, those taken since do.
    let status = 0;
    for (const started = performance.now(); status !== 200 && performance.now() - started < 2_000; ) {
      status = (await fetch(`${base}/queued`)).status;
    }
    expect(status).toBe(200);
  });

  it("refuses past maxInFlight before the framework sees the request, in the API's error shape", async () => {
    await start(10_000, 2);
    const slow = [fetch(`${base}/slow`), fetch(`${base}/slow`)];
    await sleep(100);
    const refused = await fetch(`${base}/fast`, { headers: { "x-request-id": "mine-1" } });
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toBe("1");
    expect(refused.headers.get("x-request-id")).toBe("mine-1");
    expect(refused.headers.get("x-content-type-options")).toBe("nosniff");
    expect(refused.headers.get("content-type")).toMatch(/^application\/json/);
    expect(await refused.json()).toEqual({
      error: "The gateway is at capacity (2 requests at once); retry after the Retry-After delay",
      code: "service_unavailable",
      requestId: "mine-1",
    });
    // The probes pass whatever the count.
    expect((await fetch(`${base}/readyz`)).status).toBe(200);
    await Promise.all(slow);
    expect((await fetch(`${base}/fast`)).status).toBe(200);
  });

  it("counts file transfers apart: they neither crowd out quick requests nor are crowded out by them", async () => {
    await start(10_000, 2, silentLogger(), 2);
    const exports = [1, 2].map(() => fetch(`${base}/v1/datasets/answers/export`));
    await sleep(100);
    // Two exports under way: a third is refused, saying why; quick requests still pass.
    const third = await fetch(`${base}/v1/datasets/answers/export?format=jsonl`);
    expect(third.status).toBe(503);
    expect(third.headers.get("retry-after")).toBe("1");
    expect(((await third.json()) as { error: string }).error).toBe(
      "The gateway is moving as many files as it takes at once (2 imports and exports); retry after the Retry-After delay",
    );
    expect((await fetch(`${base}/fast`)).status).toBe(200);
    // Two slow quick requests fill the other bound: requests are refused, and no longer transfers only.
    const slow = [fetch(`${base}/slow`), fetch(`${base}/slow`)];
    await sleep(100);
    expect((await fetch(`${base}/fast`)).status).toBe(503);
    await Promise.all(exports);
    expect((await fetch(`${base}/v1/datasets/answers/export`)).status).toBe(200);
    await Promise.all(slow);
    expect((await fetch(`${base}/fast`)).status).toBe(200);
  });

  it("logs refusals as counts, a line a second at most, not a line each", async () => {
    const lines: Record<string, unknown>[] = [];
    const destination = new Writable({
      write(chunk, _encoding, done) {
        lines.push(JSON.parse(String(chunk)) as Record<string, unknown>);
        done();
      },
    });
    await start(10_000, 1, createLogger({ service: "gateway", level: "info", destination }));
    const slow = fetch(`${base}/slow`);
    await sleep(100);
    const refused = await Promise.all(Array.from({ length: 30 }, () => fetch(`${base}/fast`)));
    expect(refused.map((response) => response.status)).toEqual(Array(30).fill(503));
    await slow;
    await app.close();
    const refusals = lines.filter(
      (line) => line.msg === "requests refused with 503: the gateway is over its bounds",
    );
    expect(refusals.length).toBeGreaterThanOrEqual(1);
    expect(refusals.length).toBeLessThanOrEqual(2);
    expect(refusals.reduce((sum, line) => sum + Number(line.refused), 0)).toBe(30);
    expect(refusals.reduce((sum, line) => sum + Number(line.atCapacity), 0)).toBe(30);
    expect(refusals[0]).toMatchObject({ level: 40, queueing: 0 });
  });

  it("does not take one slow request among quick ones for a queue", async () => {
    // A bound far above what a loaded machine's event loop lags, so that only the slow request could cross it.
    await start(1_000);
    const slow = fetch(`${base}/slow`);
    const { statuses } = await poll(1_600);
    await slow;
    expect(new Set(statuses)).toEqual(new Set([200]));
  });

  it("refuses while the gateway's own event loop falls behind", async () => {
    await start(100);
    await fetch(`${base}/fast`);
    const blocked = performance.now() + 300;
    while (performance.now() < blocked) {
      // The gateway busy with something else: requests wait before they are even parsed.
    }
    const { refusals } = await poll(400);
    expect(refusals.length).toBeGreaterThan(0);
  });

  it("never refuses the probes", async () => {
    await start(100);
    const burst = Promise.all(Array.from({ length: 40 }, () => fetch(`${base}/queued`)));
    await sleep(250);
    for (let n = 0; n < 20; n++) expect((await fetch(`${base}/readyz`)).status).toBe(200);
    await burst;
  });
});
