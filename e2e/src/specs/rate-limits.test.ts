import { realInfra } from "@svc/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, type Response } from "../http";
import { PrivateNats, privateNatsAvailable } from "../nats-server";
import { type Platform, startedForSuite, startPlatform } from "../platform";

const BURST = 10;
/** One token every two seconds: the test's own duration refills at most a token or two. */
const PER_SECOND = 0.5;
const limits = {
  SVC_RATE_LIMIT_KEY_BURST: String(BURST),
  SVC_RATE_LIMIT_KEY_PER_SECOND: String(PER_SECOND),
};

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function expectRateLimited(response: Response, gateway: string): number {
  expect(response.status, gateway).toBe(429);
  const retryAfter = response.headers.get("retry-after") ?? "";
  expect(retryAfter, gateway).toMatch(/^[1-9]\d*$/);
  expect(response.body).toEqual({
    error: expect.stringContaining("Too many requests for this credential"),
    code: "rate_limited",
    requestId: response.headers.get("x-request-id"),
    details: {
      scope: "key",
      retryAfterSeconds: Number(retryAfter),
      limit: { perSecond: PER_SECOND, burst: BURST },
    },
  });
  return Number(retryAfter);
}

describe.runIf(realInfra())("rate limits shared by every gateway", () => {
  const platform = startedForSuite(() => startPlatform({ gatewayEnv: limits }));
  let gateways: string[];

  beforeAll(async () => {
    gateways = [platform.baseUrl, await platform.startGateway()];
  });

  it("spends one budget across two gateways, answers 429 with Retry-After at both, and refills", async () => {
    const owner = client(platform.baseUrl, platform.ownerKey);
    const key = await owner.post<{ token: string }>("/v1/api-keys", { name: "limited", role: "viewer" });
    expect(key.status).toBe(201);
    const callers = gateways.map((url) => client(url, key.body.token));

    const answers: { gateway: number; response: Response }[] = [];
    for (let i = 0; i < 3 * BURST; i++) {
      const gateway = i % 2;
      answers.push({ gateway, response: await (callers[gateway] as (typeof callers)[0]).get("/v1/account") });
    }
    const allowed = answers.filter((a) => a.response.status === 200);
    // With a bucket per gateway, twice the burst would pass. Each gateway may hold one leased token
    // unspent, and the test's own second or two refills one more.
    expect(allowed.length).toBeGreaterThanOrEqual(BURST - 2);
    expect(allowed.length).toBeLessThanOrEqual(BURST + 1);
    expect(answers.every((a) => [200, 429].includes(a.response.status))).toBe(true);
    const waits = [0, 1].map((gateway) => {
      const refusals = answers.filter((a) => a.gateway === gateway && a.response.status === 429);
      expect(refusals.length, `gateway ${gateway} refused nothing`).toBeGreaterThan(0);
      return refusals.map((a) => expectRateLimited(a.response, gateways[gateway] ?? "")).at(-1) ?? 1;
    });
    expect(Math.max(...waits)).toBeLessThanOrEqual(Math.ceil(1 / PER_SECOND));

    // After the wait it announced, each gateway lets the key through again.
    for (const gateway of [0, 1]) {
      const caller = callers[gateway] as (typeof callers)[0];
      let response = await caller.get("/v1/account");
      if (response.status === 429) {
        await pause(expectRateLimited(response, gateways[gateway] ?? "") * 1_000);
        response = await caller.get("/v1/account");
      }
      expect(response.status, `gateway ${gateway} after the wait`).toBe(200);
    }
  });

  it("limits each key on its own: another key of the organisation is served", async () => {
    const owner = client(platform.baseUrl, platform.ownerKey);
    const key = await owner.post<{ token: string }>("/v1/api-keys", { name: "fresh", role: "viewer" });
    expect(key.status).toBe(201);
    expect((await client(gateways[1] ?? "", key.body.token).get("/v1/account")).status).toBe(200);
  });
});

describe.runIf(privateNatsAvailable() && realInfra())("rate limits while their store is down", () => {
  let nats: PrivateNats;
  let platform: Platform;

  beforeAll(async () => {
    // NATS without JetStream: the bus works, the shared key-value store cannot exist.
    nats = await PrivateNats.start({ jetstream: false });
    platform = await startPlatform({
      natsUrl: nats.url,
      gatewayEnv: { ...limits, SVC_RATE_LIMIT_KEY_PER_SECOND: "0.01" },
    });
  });
  afterAll(async () => {
    await platform?.stop();
    await nats?.stop();
  });

  it("keeps serving, limits each gateway on its own, and logs the outage once", async () => {
    const api = client(platform.baseUrl, platform.ownerKey);
    const statuses: number[] = [];
    for (let i = 0; i < BURST + 5; i++) statuses.push((await api.get("/v1/account")).status);
    expect(statuses.slice(0, BURST)).toEqual(Array(BURST).fill(200));
    expect(statuses.slice(BURST)).toEqual(Array(5).fill(429));
    expect((await fetch(`${platform.baseUrl}/readyz`)).status).toBe(200);

    const gateway = platform.processes.find((p) => p.name === "gateway");
    const lines = (gateway?.output.join("") ?? "")
      .split("\n")
      .filter((line) => line.includes("rate limiter store"));
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] ?? "{}")).toMatchObject({
      level: 50, // error
      msg: "rate limiter store unavailable; each gateway limits on its own until it answers",
    });
  });
});
