import { randomBytes } from "node:crypto";
import { silentLogger } from "@svc/telemetry";
import { realInfra } from "@svc/testing";
import { connect, type NatsConnection } from "nats";
import { afterAll, describe, expect, it, vi } from "vitest";
import { type BucketStore, KvBucketStore, MemoryBucketStore, RateLimiter, refillAndTake } from "./rate-limit";

describe("token bucket", () => {
  const limit = { burst: 10, perSecond: 2 };

  it("starts full and refills at its rate, never above its burst", () => {
    const first = refillAndTake(undefined, limit, 0, 10);
    expect(first.granted).toBe(10);
    const empty = refillAndTake(first.state, limit, 0, 1);
    expect(empty).toMatchObject({ granted: 0, retryAfterMs: 500 });
    const later = refillAndTake(first.state, limit, 1_000, 5);
    expect(later.granted).toBe(2);
    expect(refillAndTake(first.state, limit, 60_000, 50).granted).toBe(10);
  });

  it("answers 429-worthy denials with the wait until the next token", async () => {
    let now = 0;
    const store = new MemoryBucketStore(() => now);
    const limiter = new RateLimiter(
      store,
      { perKey: { burst: 2, perSecond: 1 }, perOrganization: undefined },
      silentLogger(),
    );
    expect(await limiter.check("k", "o")).toEqual({ allowed: true });
    expect(await limiter.check("k", "o")).toEqual({ allowed: true });
    expect(await limiter.check("k", "o")).toEqual({ allowed: false, scope: "key", retryAfterSeconds: 1 });
    expect(await limiter.check("other", "o")).toEqual({ allowed: true });
    now = 1_000;
    expect(await limiter.check("k", "o")).toEqual({ allowed: true });
  });

  it("limits an organisation across all its keys", async () => {
    const limiter = new RateLimiter(
      new MemoryBucketStore(() => 0),
      { perKey: { burst: 100, perSecond: 1 }, perOrganization: { burst: 3, perSecond: 1 } },
      silentLogger(),
    );
    const decisions = [];
    for (const key of ["a", "b", "c", "d"]) decisions.push(await limiter.check(key, "org"));
    expect(decisions.at(-1)).toMatchObject({ allowed: false, scope: "organization" });
  });

  it("keeps serving, and logs once, when its store is down", async () => {
    const broken: BucketStore = { take: async () => Promise.reject(new Error("store down")) };
    const logger = silentLogger();
    const error = vi.spyOn(logger, "error");
    const limiter = new RateLimiter(
      broken,
      { perKey: { burst: 1, perSecond: 1 }, perOrganization: undefined },
      logger,
    );
    for (let i = 0; i < 5; i++) expect(await limiter.check("k", "o")).toEqual({ allowed: true });
    expect(error).toHaveBeenCalledTimes(1);
  });
});

describe.runIf(realInfra())("token buckets shared through NATS key-value", () => {
  const connections: NatsConnection[] = [];
  afterAll(async () => {
    await Promise.all(connections.map((nc) => nc.close()));
  });

  it("enforces one limit across two gateways", async () => {
    const url = realInfra()?.natsUrl ?? "";
    const bucket = `svc_rl_test_${randomBytes(4).toString("hex")}`;
    const [a, b] = await Promise.all([connect({ servers: url }), connect({ servers: url })]);
    connections.push(a, b);
    const limit = { burst: 20, perSecond: 0.001 };
    const stores = [await KvBucketStore.open(a, bucket), await KvBucketStore.open(b, bucket)];
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) => (stores[i % 2] as KvBucketStore).take("key.shared", limit)),
    );
    expect(results.filter((r) => r.allowed)).toHaveLength(20);
    expect(results.filter((r) => !r.allowed).every((r) => r.retryAfterMs > 0)).toBe(true);
    await a
      .jetstream()
      .views.kv(bucket)
      .then((kv) => kv.destroy());
  });
});
