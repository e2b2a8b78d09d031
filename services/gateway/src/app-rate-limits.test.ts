import { silentLogger } from "@svc/telemetry";
import type { LightMyRequestResponse } from "fastify";
import { afterEach, describe, expect, it, vi } from "vitest";
import { type BucketStore, MemoryBucketStore } from "./bucket-store";
import { type FakePlatform, fakePlatform } from "./testing/fake-platform";

let platform: FakePlatform | undefined;
afterEach(async () => {
  await platform?.close();
  platform = undefined;
});

let now = 1_000_000;
const clock = () => now;

async function start(
  env: Record<string, string>,
  store: BucketStore = new MemoryBucketStore(clock),
): Promise<FakePlatform> {
  platform = await fakePlatform(env, { rateLimitStore: store });
  return platform;
}

const account = (key: string) =>
  (platform as FakePlatform).gateway.app.inject({
    method: "GET",
    url: "/v1/account",
    headers: { authorization: `Bearer ${key}` },
  });

/** A tools/call of the stateless MCP endpoint, answered as plain JSON. */
async function mcpTool(
  key: string,
  name: string,
): Promise<{ isError?: boolean; structuredContent?: unknown }> {
  const response = await (platform as FakePlatform).gateway.app.inject({
    method: "POST",
    url: "/v1/mcp",
    headers: {
      authorization: `Bearer ${key}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
    },
    payload: { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: {} } },
  });
  expect(response.statusCode).toBe(200);
  return (response.json() as { result: { isError?: boolean; structuredContent?: unknown } }).result;
}

const statuses = (responses: LightMyRequestResponse[]) => responses.map((r) => r.statusCode);

describe("rate limits on the API", () => {
  const perKey = { SVC_RATE_LIMIT_KEY_BURST: "2", SVC_RATE_LIMIT_KEY_PER_SECOND: "1" };

  it("answers a credential past its burst with 429 rate_limited and Retry-After, before any service", async () => {
    const { key, calls } = await start(perKey);
    const owner = key();
    expect(statuses([await account(owner), await account(owner)])).toEqual([200, 200]);
    const refused = await account(owner);
    expect(refused.statusCode).toBe(429);
    expect(refused.headers["retry-after"]).toBe("1");
    expect(refused.json()).toEqual({
      error: "Too many requests for this credential (at most 1 per second, bursts of 2); retry after 1 s",
      code: "rate_limited",
      requestId: refused.headers["x-request-id"],
      details: { scope: "key", retryAfterSeconds: 1, limit: { perSecond: 1, burst: 2 } },
    });
    expect(calls).toHaveLength(2);

    // Another key of the same organisation has its own bucket.
    expect((await account(key())).statusCode).toBe(200);
    now += 1_000;
    expect((await account(owner)).statusCode).toBe(200);
  });

  it("answers with whole seconds to wait when the rate is slow", async () => {
    const { key } = await start({ SVC_RATE_LIMIT_KEY_BURST: "1", SVC_RATE_LIMIT_KEY_PER_SECOND: "0.25" });
    const owner = key();
    await account(owner);
    const refused = await account(owner);
    expect(refused.statusCode).toBe(429);
    expect(refused.headers["retry-after"]).toBe("4");
  });

  it("limits an organisation across its keys, and leaves other organisations alone", async () => {
    const { key } = await start({ SVC_RATE_LIMIT_ORG_BURST: "3", SVC_RATE_LIMIT_ORG_PER_SECOND: "1" });
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await account(key("viewer", "org_busy")));
    expect(statuses(answers)).toEqual([200, 200, 200, 429]);
    expect(answers[3]?.json()).toMatchObject({ code: "rate_limited", details: { scope: "organization" } });
    expect((await account(key("viewer", "org_quiet"))).statusCode).toBe(200);
  });

  it("counts MCP tool calls in the same buckets as HTTP requests, with the same error", async () => {
    const { key, calls } = await start(perKey);
    const owner = key();
    expect((await account(owner)).statusCode).toBe(200);
    expect((await mcpTool(owner, "getAccount")).isError).toBeUndefined();
    const refused = await mcpTool(owner, "getAccount");
    expect(refused.isError).toBe(true);
    expect(refused.structuredContent).toMatchObject({
      code: "rate_limited",
      details: { scope: "key", retryAfterSeconds: 1 },
    });
    expect((await account(owner)).statusCode).toBe(429);
    expect(calls).toHaveLength(2);
  });

  it("does not limit the operator token", async () => {
    const adminToken = "operator-token-0123456789";
    const { gateway } = await start({
      SVC_ADMIN_TOKEN: adminToken,
      SVC_RATE_LIMIT_KEY_BURST: "1",
      SVC_RATE_LIMIT_ORG_BURST: "1",
    });
    for (let i = 0; i < 5; i++) {
      const created = await gateway.app.inject({
        method: "POST",
        url: "/v1/organizations",
        headers: { authorization: `Bearer ${adminToken}`, "content-type": "application/json" },
        payload: { name: `Org ${i}` },
      });
      expect(created.statusCode).toBe(201);
    }
  });

  it("limits nothing when SVC_RATE_LIMIT_ENABLED is false", async () => {
    const take = vi.fn<BucketStore["take"]>();
    const { key } = await start(
      { ...perKey, SVC_RATE_LIMIT_ORG_BURST: "1", SVC_RATE_LIMIT_ENABLED: "false" },
      { take },
    );
    const owner = key();
    for (let i = 0; i < 5; i++) expect((await account(owner)).statusCode).toBe(200);
    expect(take).not.toHaveBeenCalled();
  });

  it("keeps serving when the shared store is down, limiting on its own and logging once", async () => {
    const logger = silentLogger();
    const error = vi.spyOn(logger, "error");
    const down: BucketStore = { take: () => Promise.reject(new Error("JetStream not enabled")) };
    // The fallback buckets run on the real clock: a slow refill keeps the test independent of its speed.
    const slow = { SVC_RATE_LIMIT_KEY_BURST: "2", SVC_RATE_LIMIT_KEY_PER_SECOND: "0.01" };
    platform = await fakePlatform(slow, { rateLimitStore: down, logger });
    const owner = platform.key();
    const answers = [];
    for (let i = 0; i < 6; i++) answers.push(await account(owner));
    expect(statuses(answers)).toEqual([200, 200, 429, 429, 429, 429]);
    const outage = error.mock.calls.filter(([, message]) => String(message).includes("rate limiter store"));
    expect(outage).toHaveLength(1);
  });
});

describe("rate limits on OAuth registration and tokens", () => {
  const register = (headers: Record<string, string> = {}) =>
    (platform as FakePlatform).gateway.app.inject({
      method: "POST",
      url: "/oauth/register",
      headers: { "content-type": "application/json", ...headers },
      payload: { redirect_uris: ["http://127.0.0.1:3000/callback"] },
    });
  const perAddress = { SVC_RATE_LIMIT_OAUTH_BURST: "2", SVC_RATE_LIMIT_OAUTH_PER_SECOND: "0.1" };

  it("throttles each client address, with the OAuth error shape and Retry-After", async () => {
    await start(perAddress);
    expect(statuses([await register(), await register()])).toEqual([201, 201]);
    const refused = await register();
    expect(refused.statusCode).toBe(429);
    expect(refused.headers["retry-after"]).toBe("10");
    expect(refused.headers["cache-control"]).toBe("no-store");
    expect(refused.json()).toEqual({
      error: "temporarily_unavailable",
      error_description:
        "Too many requests for this client address (at most 0.1 per second, bursts of 2); retry after 10 s",
    });
    // The token endpoint draws on the same bucket.
    const token = await (platform as FakePlatform).gateway.app.inject({
      method: "POST",
      url: "/oauth/token",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: "grant_type=refresh_token&refresh_token=x&client_id=y",
    });
    expect(token.statusCode).toBe(429);
  });

  it("ignores X-Forwarded-For unless proxies are trusted", async () => {
    await start(perAddress);
    const spoofed = [];
    for (let i = 0; i < 3; i++) spoofed.push(await register({ "x-forwarded-for": `198.51.100.${i}` }));
    expect(statuses(spoofed)).toEqual([201, 201, 429]);
  });

  it("limits the address the trusted proxy saw, whatever the client adds before it", async () => {
    await start({ ...perAddress, SVC_TRUST_PROXY: "true" });
    const answers = [];
    for (let i = 0; i < 3; i++)
      answers.push(await register({ "x-forwarded-for": `10.0.0.${i}, 198.51.100.1` }));
    expect(statuses(answers)).toEqual([201, 201, 429]);
    expect((await register({ "x-forwarded-for": "198.51.100.2" })).statusCode).toBe(201);
  });

  it("leaves the API's own limits to the API", async () => {
    const { key } = await start({ ...perAddress, SVC_RATE_LIMIT_OAUTH_BURST: "1" });
    await register();
    expect((await register()).statusCode).toBe(429);
    expect((await account(key())).statusCode).toBe(200);
  });
});
