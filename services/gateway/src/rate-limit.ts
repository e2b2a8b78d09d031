import type { Logger } from "@svc/telemetry";
import type { KV, NatsConnection } from "nats";

/** A token bucket: `burst` tokens at most, refilled at `perSecond`. */
export interface BucketLimit {
  burst: number;
  perSecond: number;
}

export interface TakeResult {
  allowed: boolean;
  /** When denied: how long until a token is there. */
  retryAfterMs: number;
}

/** Where bucket state lives. Every gateway replica must share it. */
export interface BucketStore {
  take(key: string, limit: BucketLimit): Promise<TakeResult>;
}

interface BucketState {
  tokens: number;
  at: number;
}

/** Refills a bucket up to `now` and takes up to `want` tokens from it. */
export function refillAndTake(state: BucketState | undefined, limit: BucketLimit, now: number, want: number) {
  const elapsed = state ? Math.max(0, now - state.at) / 1000 : 0;
  const available = state ? Math.min(limit.burst, state.tokens + elapsed * limit.perSecond) : limit.burst;
  const granted = Math.min(want, Math.floor(available));
  const left = available - granted;
  const retryAfterMs = granted > 0 ? 0 : Math.ceil(((1 - available) / limit.perSecond) * 1000);
  return { granted, state: { tokens: left, at: now }, retryAfterMs };
}

/** Buckets in this process's memory: right for the embedded platform, where there is one gateway. */
export class MemoryBucketStore implements BucketStore {
  private readonly buckets = new Map<string, BucketState>();

  constructor(private readonly now: () => number = Date.now) {}

  async take(key: string, limit: BucketLimit): Promise<TakeResult> {
    const result = refillAndTake(this.buckets.get(key), limit, this.now(), 1);
    this.buckets.set(key, result.state);
    return { allowed: result.granted === 1, retryAfterMs: result.retryAfterMs };
  }
}

/**
 * Buckets in a NATS JetStream key-value bucket, shared by every gateway. To keep the store off the
 * hot path, a gateway takes a small lease of tokens at a time (compare-and-set on the entry's
 * revision) and spends it locally; the tokens of a lease were taken from the shared bucket, so the
 * limit holds across replicas.
 */
export class KvBucketStore implements BucketStore {
  private readonly leases = new Map<string, number>();
  private readonly pending = new Map<string, Promise<TakeResult>>();

  private constructor(
    private readonly kv: KV,
    private readonly now: () => number,
  ) {}

  static async open(
    nc: NatsConnection,
    bucket: string,
    now: () => number = Date.now,
  ): Promise<KvBucketStore> {
    // Idle buckets expire on their own after an hour: a full bucket and no entry mean the same.
    const kv = await nc
      .jetstream({ timeout: 1_000 })
      .views.kv(bucket, { history: 1, ttl: 3_600_000, timeout: 1_000 });
    return new KvBucketStore(kv, now);
  }

  async take(key: string, limit: BucketLimit): Promise<TakeResult> {
    const leased = this.leases.get(key) ?? 0;
    if (leased >= 1) {
      this.leases.set(key, leased - 1);
      return { allowed: true, retryAfterMs: 0 };
    }
    // One lease request per key at a time; requests arriving meanwhile wait for it, then retry.
    const inFlight = this.pending.get(key);
    if (inFlight) return inFlight.then(() => this.take(key, limit));
    const lease = this.lease(key, limit).finally(() => this.pending.delete(key));
    this.pending.set(key, lease);
    return lease;
  }

  private async lease(key: string, limit: BucketLimit): Promise<TakeResult> {
    const leaseSize = Math.max(1, Math.min(50, Math.floor(limit.burst / 20)));
    for (let attempt = 0; attempt < 20; attempt++) {
      const entry = await this.kv.get(key);
      const current = entry && entry.operation === "PUT" ? (entry.json() as BucketState) : undefined;
      const result = refillAndTake(current, limit, this.now(), leaseSize);
      // A denial changes nothing worth writing: the refill is computed from the stored state again.
      if (result.granted === 0) return { allowed: false, retryAfterMs: result.retryAfterMs };
      try {
        const value = JSON.stringify(result.state);
        if (entry) await this.kv.update(key, value, entry.revision);
        else await this.kv.create(key, value);
      } catch {
        // Another gateway changed the bucket first: read it again after a short, jittered pause.
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 5 * (attempt + 1)));
        continue;
      }
      this.leases.set(key, (this.leases.get(key) ?? 0) + result.granted - 1);
      return { allowed: true, retryAfterMs: 0 };
    }
    throw new Error(`rate-limit bucket ${key} is too contended`);
  }
}

export interface RateLimits {
  perKey: BucketLimit | undefined;
  perOrganization: BucketLimit | undefined;
}

export type RateDecision =
  | { allowed: true }
  | { allowed: false; retryAfterSeconds: number; scope: "key" | "organization" };

/**
 * Applies the per-key and per-organisation limits. When the store cannot answer, the request is let
 * through and the outage logged (at most every ten seconds): losing the limiter must not lose the API.
 */
export class RateLimiter {
  private lastOutageLog = 0;

  constructor(
    private readonly store: BucketStore,
    private readonly limits: RateLimits,
    private readonly logger: Logger,
  ) {}

  async check(actorId: string, organizationId: string): Promise<RateDecision> {
    try {
      const checks = [
        ["key", `key.${actorId}`, this.limits.perKey],
        ["organization", `org.${organizationId}`, this.limits.perOrganization],
      ] as const;
      for (const [scope, key, limit] of checks) {
        if (!limit) continue;
        const result = await this.store.take(key, limit);
        if (!result.allowed)
          return {
            allowed: false,
            scope,
            retryAfterSeconds: Math.max(1, Math.ceil(result.retryAfterMs / 1000)),
          };
      }
    } catch (error) {
      const now = Date.now();
      if (now - this.lastOutageLog > 10_000) {
        this.lastOutageLog = now;
        this.logger.error({ err: error }, "rate limiter store unavailable; serving without limits");
      }
    }
    return { allowed: true };
  }
}
