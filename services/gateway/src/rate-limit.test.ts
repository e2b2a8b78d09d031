import { randomBytes } from "node:crypto";
import type { Actor } from "@svc/contracts";
import { silentLogger } from "@svc/telemetry";
import { realInfra } from "@svc/testing";
import { connect, type NatsConnection } from "nats";
import { afterAll, describe, expect, it, vi } from "vitest";
import { type BucketLimit, type BucketStore, MemoryBucketStore, refillAndTake } from "./bucket-store";
import { KvBucketStore } from "./kv-bucket-store";
import { RateLimiter, type RateLimits, rateLimitedError } from "./rate-limit";

const keyOf = (id: string): Actor => ({ kind: "apiKey", id });
const limits = (overrides: Partial<RateLimits>): RateLimits => ({
  perKey: undefined,
  perOrganization: undefined,
  perClientIp: undefined,
  ...overrides,
});

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

  it("refills nothing for a gateway whose clock is behind the last writer's", () => {
    const ahead = refillAndTake(undefined, limit, 10_000, 10);
    const behind = refillAndTake(ahead.state, limit, 9_000, 1);
    expect(behind).toMatchObject({ granted: 0, state: { at: 10_000 } });
    // The wait counts from the later clock: half a second for a token, plus the second it is behind.
    expect(behind.retryAfterMs).toBe(1_500);
    // Taking turns with a skewed clock mints nothing: the bucket's time only moves forward.
    expect(refillAndTake(behind.state, limit, 10_000, 1).granted).toBe(0);
  });
});

describe("rate limiter", () => {
  it("denies a credential past its burst with the wait until the next token, then lets it go on", async () => {
    let now = 0;
    const limiter = new RateLimiter(
      new MemoryBucketStore(() => now),
      limits({ perKey: { burst: 2, perSecond: 1 } }),
      silentLogger(),
      { now: () => now },
    );
    expect(await limiter.checkCaller(keyOf("k"), "o")).toEqual({ allowed: true });
    expect(await limiter.checkCaller(keyOf("k"), "o")).toEqual({ allowed: true });
    expect(await limiter.checkCaller(keyOf("k"), "o")).toEqual({
      allowed: false,
      scope: "key",
      limit: { burst: 2, perSecond: 1 },
      retryAfterSeconds: 1,
    });
    expect(await limiter.checkCaller(keyOf("other"), "o")).toEqual({ allowed: true });
    // An OAuth grant with the same id is another credential.
    expect(await limiter.checkCaller({ kind: "oauth", id: "k" }, "o")).toEqual({ allowed: true });
    now = 1_000;
    expect(await limiter.checkCaller(keyOf("k"), "o")).toEqual({ allowed: true });
  });

  it("rounds the wait up to whole seconds", async () => {
    const limiter = new RateLimiter(
      new MemoryBucketStore(() => 0),
      limits({ perKey: { burst: 1, perSecond: 0.4 } }),
      silentLogger(),
    );
    await limiter.checkCaller(keyOf("k"), "o");
    expect(await limiter.checkCaller(keyOf("k"), "o")).toMatchObject({
      allowed: false,
      retryAfterSeconds: 3,
    });
  });

  it("limits an organisation across all its keys", async () => {
    const limiter = new RateLimiter(
      new MemoryBucketStore(() => 0),
      limits({ perKey: { burst: 100, perSecond: 1 }, perOrganization: { burst: 3, perSecond: 1 } }),
      silentLogger(),
    );
    const decisions = [];
    for (const key of ["a", "b", "c", "d"]) decisions.push(await limiter.checkCaller(keyOf(key), "org"));
    expect(decisions.map((d) => d.allowed)).toEqual([true, true, true, false]);
    expect(decisions.at(-1)).toMatchObject({ allowed: false, scope: "organization" });
    expect(await limiter.checkCaller(keyOf("e"), "another org")).toEqual({ allowed: true });
  });

  it("takes nothing from the organisation for a request its key's limit refused", async () => {
    const limiter = new RateLimiter(
      new MemoryBucketStore(() => 0),
      limits({ perKey: { burst: 1, perSecond: 1 }, perOrganization: { burst: 3, perSecond: 1 } }),
      silentLogger(),
    );
    await limiter.checkCaller(keyOf("greedy"), "org");
    for (let i = 0; i < 10; i++) {
      expect(await limiter.checkCaller(keyOf("greedy"), "org")).toMatchObject({ scope: "key" });
    }
    expect(await limiter.checkCaller(keyOf("polite"), "org")).toEqual({ allowed: true });
    expect(await limiter.checkCaller(keyOf("other"), "org")).toEqual({ allowed: true });
  });

  it("limits client addresses on their own buckets, IPv6 included", async () => {
    const limiter = new RateLimiter(
      new MemoryBucketStore(() => 0),
      limits({ perClientIp: { burst: 1, perSecond: 1 } }),
      silentLogger(),
    );
    expect(await limiter.checkClientIp("::1")).toEqual({ allowed: true });
    expect(await limiter.checkClientIp("::1")).toMatchObject({ allowed: false, scope: "clientIp" });
    expect(await limiter.checkClientIp("203.0.113.7")).toEqual({ allowed: true });
    // Limits of one kind do not apply to the other.
    expect(await limiter.checkCaller(keyOf("k"), "o")).toEqual({ allowed: true });
  });

  it("allows everything without touching the store when no limit is set", async () => {
    const take = vi.fn<BucketStore["take"]>();
    const limiter = new RateLimiter({ take }, limits({}), silentLogger());
    for (let i = 0; i < 5; i++) expect(await limiter.checkCaller(keyOf("k"), "o")).toEqual({ allowed: true });
    expect(take).not.toHaveBeenCalled();
  });

  it("falls back to this gateway's own buckets while the store is down, logging once", async () => {
    let now = 0;
    const take = vi.fn<BucketStore["take"]>(async () => Promise.reject(new Error("store down")));
    const logger = silentLogger();
    const error = vi.spyOn(logger, "error");
    const limiter = new RateLimiter({ take }, limits({ perKey: { burst: 3, perSecond: 1 } }), logger, {
      now: () => now,
      fallback: new MemoryBucketStore(() => now),
      storeRetryMs: 5_000,
      logEveryMs: 10_000,
    });
    const decisions = [];
    for (let i = 0; i < 5; i++) decisions.push((await limiter.checkCaller(keyOf("k"), "o")).allowed);
    // Still limited, by this gateway alone, rather than not at all.
    expect(decisions).toEqual([true, true, true, false, false]);
    expect(error).toHaveBeenCalledTimes(1);
    // The failed store is left alone for a while: one failed call, not one per request.
    expect(take).toHaveBeenCalledTimes(1);

    now = 5_000;
    await limiter.checkCaller(keyOf("k"), "o");
    expect(take).toHaveBeenCalledTimes(2);
    expect(error).toHaveBeenCalledTimes(1);
    now = 10_000;
    await limiter.checkCaller(keyOf("k"), "o");
    expect(error).toHaveBeenCalledTimes(2);
  });

  it("says so once the store answers again, and uses it", async () => {
    let now = 0;
    let down = true;
    const store = new MemoryBucketStore(() => now);
    const flaky: BucketStore = {
      take: (key, limit) => (down ? Promise.reject(new Error("store down")) : store.take(key, limit)),
    };
    const logger = silentLogger();
    const info = vi.spyOn(logger, "info");
    const limiter = new RateLimiter(flaky, limits({ perKey: { burst: 1, perSecond: 1 } }), logger, {
      now: () => now,
    });
    await limiter.checkCaller(keyOf("k"), "o");
    down = false;
    now = 5_000;
    expect(await limiter.checkCaller(keyOf("k"), "o")).toEqual({ allowed: true });
    expect(info).toHaveBeenCalledWith(expect.stringContaining("answering again"));
    expect(await limiter.checkCaller(keyOf("k"), "o")).toMatchObject({ allowed: false });
  });

  it("turns a denial into 429 rate_limited whose details carry the wait and the limit", () => {
    const error = rateLimitedError({
      allowed: false,
      scope: "organization",
      limit: { burst: 1000, perSecond: 500 },
      retryAfterSeconds: 2,
    });
    expect(error.status).toBe(429);
    expect(error.code).toBe("rate_limited");
    expect(error.message).toBe(
      "Too many requests for this organisation (at most 500 per second, bursts of 1000); retry after 2 s",
    );
    expect(error.details).toEqual({
      scope: "organization",
      retryAfterSeconds: 2,
      limit: { perSecond: 500, burst: 1000 },
    });
  });
});

describe("memory buckets", () => {
  it("forget buckets that have refilled once there are many", async () => {
    let now = 0;
    const store = new MemoryBucketStore(() => now, 100);
    const limit = { burst: 2, perSecond: 1 };
    for (let i = 0; i < 100; i++) await store.take(`ip.${i}`, limit);
    now = 2_000;
    await store.take("ip.new", limit);
    expect(store.size).toBe(1);
  });
});

describe.runIf(realInfra())("token buckets shared through NATS key-value", () => {
  const connections: NatsConnection[] = [];
  const buckets: string[] = [];
  const url = realInfra()?.natsUrl ?? "";
  afterAll(async () => {
    const nc = connections[0];
    if (nc) {
      const jsm = await nc.jetstreamManager();
      await Promise.allSettled(buckets.map((bucket) => jsm.streams.delete(`KV_${bucket}`)));
    }
    await Promise.all(connections.map((c) => c.close()));
  });

  async function gateways(count: number, now?: () => number) {
    const bucket = `svc_rl_test_${randomBytes(4).toString("hex")}`;
    buckets.push(bucket);
    const opened = await Promise.all(Array.from({ length: count }, () => connect({ servers: url })));
    connections.push(...opened);
    const stores = opened.map((nc) => new KvBucketStore(nc, bucket, now));
    const entry = async (key: string) => {
      const kv = await opened[0]?.jetstream().views.kv(bucket);
      return kv?.get(key);
    };
    return { stores, entry, bucket, connections: opened };
  }

  const takeMany = (stores: KvBucketStore[], key: string, limit: BucketLimit, count: number) =>
    Promise.all(
      Array.from({ length: count }, (_, i) => (stores[i % stores.length] as KvBucketStore).take(key, limit)),
    );

  it("enforces one limit across two gateways", async () => {
    const { stores } = await gateways(2);
    const limit = { burst: 20, perSecond: 0.001 };
    const results = await takeMany(stores, "key.shared", limit, 40);
    const allowed = results.filter((r) => r.allowed).length;
    // Each gateway may hold one leased token unspent (a twentieth of the burst); never more than the burst.
    expect(allowed).toBeGreaterThanOrEqual(18);
    expect(allowed).toBeLessThanOrEqual(20);
    expect(results.filter((r) => !r.allowed).every((r) => r.retryAfterMs > 0)).toBe(true);
  });

  it("serves 32 concurrent callers on one key with a write per lease, not per request", async () => {
    const { stores, entry } = await gateways(1);
    const limit = { burst: 1_000_000, perSecond: 1_000_000 };
    const store = stores[0] as KvBucketStore;
    let done = 0;
    await Promise.all(
      Array.from({ length: 32 }, async () => {
        for (let i = 0; i < 100; i++) {
          expect((await store.take("key.hot", limit)).allowed).toBe(true);
          done++;
        }
      }),
    );
    expect(done).toBe(3_200);
    // Each write is a new revision; leases grow to 50 tokens, so 3,200 requests need few writes.
    const revision = (await entry("key.hot"))?.revision ?? 0;
    expect(revision).toBeGreaterThan(0);
    expect(revision).toBeLessThan(3_200 / 10);
  });

  it("remembers a denial until a token can be there, without asking the store again", async () => {
    let now = 1_000_000;
    const { stores, entry } = await gateways(1, () => now);
    const store = stores[0] as KvBucketStore;
    const limit = { burst: 2, perSecond: 1 };
    expect((await store.take("key.d", limit)).allowed).toBe(true);
    expect((await store.take("key.d", limit)).allowed).toBe(true);
    expect(await store.take("key.d", limit)).toEqual({ allowed: false, retryAfterMs: 1_000 });
    const revision = (await entry("key.d"))?.revision;
    for (let i = 0; i < 20; i++) expect((await store.take("key.d", limit)).allowed).toBe(false);
    expect((await entry("key.d"))?.revision).toBe(revision);
    now += 1_000;
    expect((await store.take("key.d", limit)).allowed).toBe(true);
  });

  it("never refuses a client that stays under its rate, however leases are sized", async () => {
    let now = 1_000_000;
    const { stores } = await gateways(2, () => now);
    const limit = { burst: 20, perSecond: 10 };
    for (let i = 0; i < 100; i++) {
      now += 125; // 8 requests a second, alternating between the gateways
      const result = await (stores[i % 2] as KvBucketStore).take("key.steady", limit);
      expect(result, `request ${i}`).toEqual({ allowed: true, retryAfterMs: 0 });
    }
  });

  it("creates the bucket again when it is gone (memory storage does not survive a NATS restart)", async () => {
    const {
      stores,
      bucket,
      connections: [nc],
    } = await gateways(1);
    const store = stores[0] as KvBucketStore;
    const limit = { burst: 100, perSecond: 100 };
    expect((await store.take("key.lost", limit)).allowed).toBe(true);
    const jsm = await (nc as NatsConnection).jetstreamManager();
    await new Promise((resolve) => setTimeout(resolve, 50));
    await jsm.streams.delete(`KV_${bucket}`);
    const outcomes: string[] = [];
    for (let i = 0; i < 6; i++) {
      outcomes.push(
        await store.take("key.lost", limit).then(
          (r) => String(r.allowed),
          () => "failed",
        ),
      );
    }
    // The lease that found the bucket gone fails the one request waiting for it; the next lease recreates it.
    expect(outcomes.filter((o) => o === "failed").length).toBeLessThanOrEqual(1);
    expect(outcomes.slice(-3)).toEqual(["true", "true", "true"]);
    expect((await jsm.streams.info(`KV_${bucket}`)).config.storage).toBe("memory");
  });
});
