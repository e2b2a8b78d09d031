import { type Actor, DomainError } from "@svc/contracts";
import type { Logger } from "@svc/telemetry";
import { type KV, type NatsConnection, StorageType } from "nats";

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

const ALLOWED: TakeResult = { allowed: true, retryAfterMs: 0 };

/**
 * Refills a bucket up to `now` and takes up to `want` tokens from it. A bucket's clock never runs
 * backwards: a gateway whose clock is behind the last writer's refills nothing until it catches up,
 * so that replicas with skewed clocks cannot mint tokens by taking turns.
 */
export function refillAndTake(state: BucketState | undefined, limit: BucketLimit, now: number, want: number) {
  const at = state ? Math.max(state.at, now) : now;
  const elapsed = state ? (at - state.at) / 1000 : 0;
  const available = state ? Math.min(limit.burst, state.tokens + elapsed * limit.perSecond) : limit.burst;
  const granted = Math.max(0, Math.min(want, Math.floor(available)));
  const left = available - granted;
  const retryAfterMs = granted > 0 ? 0 : Math.ceil(((1 - available) / limit.perSecond) * 1000) + (at - now);
  return { granted, state: { tokens: left, at }, retryAfterMs };
}

/**
 * Buckets in this process's memory: right for the embedded platform, where there is one gateway, and
 * the fallback of a gateway whose shared store is down. Buckets that have refilled are forgotten once
 * there are many, so that a stream of distinct client addresses cannot grow it without bound.
 */
export class MemoryBucketStore implements BucketStore {
  private readonly buckets = new Map<string, BucketState & { fullAt: number }>();

  constructor(
    private readonly now: () => number = Date.now,
    private readonly sweepAbove = 10_000,
  ) {}

  async take(key: string, limit: BucketLimit): Promise<TakeResult> {
    const now = this.now();
    const result = refillAndTake(this.buckets.get(key), limit, now, 1);
    const fullAt = result.state.at + ((limit.burst - result.state.tokens) / limit.perSecond) * 1000;
    this.buckets.set(key, { ...result.state, fullAt });
    if (this.buckets.size > this.sweepAbove) this.sweep(now);
    return result.granted === 1 ? ALLOWED : { allowed: false, retryAfterMs: result.retryAfterMs };
  }

  get size(): number {
    return this.buckets.size;
  }

  /** A full bucket and no bucket mean the same. */
  private sweep(now: number): void {
    for (const [key, bucket] of this.buckets) if (bucket.fullAt <= now) this.buckets.delete(key);
  }
}

/** The tokens of one bucket this gateway holds, and what it last knew of the shared entry. */
interface Lease {
  tokens: number;
  /** Tokens asked for per lease: grows while leases are spent quickly, shrinks when they last. */
  size: number;
  grantedAt: number;
  /** The shared bucket was empty: deny here, without asking, until a token can be there. */
  deniedUntil: number;
  /** Requests waiting for the lease in flight; a lease asks for enough for all of them. */
  waiting: number;
  pending: Promise<void> | undefined;
  /** The entry as this gateway last wrote or read it: a compare-and-set needs no read when it is current. */
  entry: { state: BucketState; revision: number } | undefined;
}

/** JetStream's answer to a compare-and-set on a revision that is no longer the last. */
const WRONG_LAST_SEQUENCE = 10071;
const LEASE_CAP = 50;
const FAST_LEASE_MS = 100;
const SLOW_LEASE_MS = 1_000;
const MAX_ATTEMPTS = 10;
const MAX_WAITS = 100;
const KV_TIMEOUT_MS = 1_000;
const SWEEP_ABOVE = 10_000;
/** Idle entries expire on their own: a full bucket and no entry mean the same. */
const ENTRY_TTL_MS = 3_600_000;

/**
 * Buckets in a NATS JetStream key-value bucket, shared by every gateway. To keep the store off the
 * hot path, a gateway leases a few tokens at a time (compare-and-set on the entry's revision) and
 * spends them locally, leasing the next batch in the background before the last is spent. Leased
 * tokens were taken from the shared bucket, so the limit holds across replicas; what a gateway may
 * hold unspent is bounded by the lease cap (a twentieth of the burst, at most 50). A denial is
 * remembered until a token can be there, so that a client hammering past its limit costs no store
 * round trip either.
 */
export class KvBucketStore implements BucketStore {
  private readonly leases = new Map<string, Lease>();
  private kv: Promise<KV> | undefined;

  constructor(
    private readonly nc: NatsConnection,
    private readonly bucket: string,
    private readonly now: () => number = Date.now,
    /** False while the connection is down: a lease would be buffered until its timeout, so fail at once. */
    private readonly connected: () => boolean = () => !nc.isClosed(),
  ) {}

  async take(key: string, limit: BucketLimit): Promise<TakeResult> {
    const lease = this.leaseOf(key);
    for (let waits = 0; waits < MAX_WAITS; waits++) {
      if (lease.tokens >= 1) {
        lease.tokens -= 1;
        if (lease.tokens < lease.size / 2) this.prefetch(key, lease, limit);
        return ALLOWED;
      }
      const now = this.now();
      if (now < lease.deniedUntil) return { allowed: false, retryAfterMs: lease.deniedUntil - now };
      // A lease in flight when the connection dropped waits out its timeout; this request need not.
      if (!this.connected()) throw new Error("the rate-limit store is unreachable: the bus is reconnecting");
      lease.waiting++;
      try {
        await (lease.pending ?? this.renew(key, lease, limit));
      } finally {
        lease.waiting--;
      }
    }
    throw new Error(`rate-limit bucket ${key} is too contended`);
  }

  private leaseOf(key: string): Lease {
    let lease = this.leases.get(key);
    if (!lease) {
      if (this.leases.size >= SWEEP_ABOVE) this.sweep();
      lease = {
        tokens: 0,
        size: 1,
        grantedAt: 0,
        deniedUntil: 0,
        waiting: 0,
        pending: undefined,
        entry: undefined,
      };
      this.leases.set(key, lease);
    }
    return lease;
  }

  /** Forgets buckets this gateway holds nothing of, so that many distinct keys cannot grow the map without bound. */
  private sweep(): void {
    const now = this.now();
    for (const [key, lease] of this.leases) {
      if (lease.tokens < 1 && !lease.pending && lease.waiting === 0 && lease.deniedUntil <= now) {
        this.leases.delete(key);
      }
    }
  }

  /** Leases the next batch while tokens remain; a failure surfaces at the next take that needs tokens. */
  private prefetch(key: string, lease: Lease, limit: BucketLimit): void {
    if (lease.pending || this.now() < lease.deniedUntil) return;
    this.renew(key, lease, limit).catch(() => undefined);
  }

  private renew(key: string, lease: Lease, limit: BucketLimit): Promise<void> {
    const pending = this.lease(key, lease, limit).finally(() => {
      lease.pending = undefined;
    });
    lease.pending = pending;
    return pending;
  }

  private async lease(key: string, lease: Lease, limit: BucketLimit): Promise<void> {
    const cap = Math.max(1, Math.min(LEASE_CAP, Math.floor(limit.burst / 20)));
    const want = Math.min(cap, Math.max(lease.size, lease.waiting));
    if (!this.connected()) throw new Error("the rate-limit store is unreachable: the bus is reconnecting");
    let kv: KV;
    try {
      kv = await this.open();
    } catch (error) {
      this.kv = undefined;
      throw error;
    }
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      try {
        const current = lease.entry ?? (await read(kv, key));
        const now = this.now();
        const result = refillAndTake(current?.state, limit, now, want);
        if (result.granted === 0) {
          // A denial changes nothing worth writing: the refill is computed from the stored state again.
          lease.entry = current;
          lease.deniedUntil = now + result.retryAfterMs;
          return;
        }
        const value = JSON.stringify(result.state);
        const revision = current
          ? await kv.update(key, value, current.revision)
          : await kv.create(key, value);
        lease.entry = { state: result.state, revision };
        lease.size = nextLeaseSize(lease, now, cap);
        lease.grantedAt = now;
        lease.tokens += result.granted;
        return;
      } catch (error) {
        lease.entry = undefined;
        if (!isWrongRevision(error)) {
          // The bucket may be gone (a NATS restart loses memory storage): open it afresh next time.
          this.kv = undefined;
          throw error;
        }
        // Another gateway changed the bucket first: read it again after a short, jittered pause.
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 5 * (attempt + 1)));
      }
    }
    throw new Error(`rate-limit bucket ${key} is too contended`);
  }

  private open(): Promise<KV> {
    this.kv ??= this.nc.jetstream({ timeout: KV_TIMEOUT_MS }).views.kv(this.bucket, {
      history: 1,
      ttl: ENTRY_TTL_MS,
      // Losing the buckets on a NATS restart only refills them: not worth a disk write per lease.
      storage: StorageType.Memory,
      timeout: KV_TIMEOUT_MS,
    });
    return this.kv;
  }
}

async function read(kv: KV, key: string): Promise<{ state: BucketState; revision: number } | undefined> {
  const entry = await kv.get(key);
  if (entry?.operation !== "PUT") return undefined;
  return { state: entry.json() as BucketState, revision: entry.revision };
}

/** Doubles the lease while each is spent within a tenth of a second, halves it when one lasts a second. */
function nextLeaseSize(lease: Lease, now: number, cap: number): number {
  const lasted = now - lease.grantedAt;
  if (lasted < FAST_LEASE_MS) return Math.min(cap, lease.size * 2);
  if (lasted > SLOW_LEASE_MS) return Math.max(1, Math.floor(lease.size / 2));
  return Math.min(cap, lease.size);
}

function isWrongRevision(error: unknown): boolean {
  return (error as { api_error?: { err_code?: number } })?.api_error?.err_code === WRONG_LAST_SEQUENCE;
}

export interface RateLimits {
  perKey: BucketLimit | undefined;
  perOrganization: BucketLimit | undefined;
  /** For the unauthenticated endpoints that create things (OAuth registration and tokens). */
  perClientIp: BucketLimit | undefined;
}

export type RateScope = "key" | "organization" | "clientIp";

export type RateDecision =
  | { allowed: true }
  | { allowed: false; scope: RateScope; limit: BucketLimit; retryAfterSeconds: number };

export interface RateLimiterOptions {
  /** Where buckets live while the shared store cannot answer: each gateway then limits on its own. */
  fallback?: BucketStore;
  /** How long to leave a failed store alone before asking it again. */
  storeRetryMs?: number;
  /** At most one outage line per this long. */
  logEveryMs?: number;
  now?: () => number;
}

/**
 * Applies the limits. When the shared store cannot answer, requests are checked against buckets in
 * this gateway's memory instead (so one client still cannot flood one gateway), the store is left
 * alone for a few seconds before it is asked again, and the outage is logged at most every ten
 * seconds: losing the limiter must not lose the API, nor fill the logs.
 */
export class RateLimiter {
  private readonly fallback: BucketStore;
  private readonly storeRetryMs: number;
  private readonly logEveryMs: number;
  private readonly now: () => number;
  private storeDownUntil = 0;
  private storeDown = false;
  private lastOutageLog = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly store: BucketStore,
    private readonly limits: RateLimits,
    private readonly logger: Logger,
    options: RateLimiterOptions = {},
  ) {
    this.now = options.now ?? Date.now;
    this.fallback = options.fallback ?? new MemoryBucketStore(this.now);
    this.storeRetryMs = options.storeRetryMs ?? 5_000;
    this.logEveryMs = options.logEveryMs ?? 10_000;
  }

  /** An authenticated call: its credential's bucket, then its organisation's. */
  checkCaller(actor: Actor, organizationId: string): Promise<RateDecision> {
    return this.check([
      ["key", bucketKey("key", actor.kind, actor.id), this.limits.perKey],
      ["organization", bucketKey("org", organizationId), this.limits.perOrganization],
    ]);
  }

  checkClientIp(ip: string): Promise<RateDecision> {
    return this.check([["clientIp", bucketKey("ip", ip), this.limits.perClientIp]]);
  }

  private async check(checks: [RateScope, string, BucketLimit | undefined][]): Promise<RateDecision> {
    if (this.now() >= this.storeDownUntil) {
      try {
        const decision = await takeAll(this.store, checks);
        if (this.storeDown) {
          this.storeDown = false;
          this.logger.info("rate limiter store answering again; limits are shared by every gateway again");
        }
        return decision;
      } catch (error) {
        this.noteOutage(error);
      }
    }
    return takeAll(this.fallback, checks);
  }

  private noteOutage(error: unknown): void {
    const now = this.now();
    this.storeDown = true;
    this.storeDownUntil = now + this.storeRetryMs;
    if (now - this.lastOutageLog < this.logEveryMs) return;
    this.lastOutageLog = now;
    this.logger.error(
      { err: error },
      "rate limiter store unavailable; each gateway limits on its own until it answers",
    );
  }
}

/** One bucket after the other: a request denied by its key's bucket takes nothing from its organisation's. */
async function takeAll(
  store: BucketStore,
  checks: [RateScope, string, BucketLimit | undefined][],
): Promise<RateDecision> {
  for (const [scope, key, limit] of checks) {
    if (!limit) continue;
    const result = await store.take(key, limit);
    if (!result.allowed) {
      return {
        allowed: false,
        scope,
        limit,
        retryAfterSeconds: Math.max(1, Math.ceil(result.retryAfterMs / 1000)),
      };
    }
  }
  return { allowed: true };
}

/** Key-value keys allow letters, digits and `-/_=.`; an IPv6 address's colons become underscores. */
function bucketKey(...parts: string[]): string {
  return parts.map((part) => part.replace(/[^A-Za-z0-9_=.-]/g, "_")).join(".");
}

const scopeNames: Record<RateScope, string> = {
  key: "this credential",
  organization: "this organisation",
  clientIp: "this client address",
};

/** The 429 a denial becomes, in the API's error vocabulary; `Retry-After` comes from its details. */
export function rateLimitedError(denial: Extract<RateDecision, { allowed: false }>): DomainError {
  const { scope, limit, retryAfterSeconds } = denial;
  return new DomainError(
    "rate_limited",
    `Too many requests for ${scopeNames[scope]} (at most ${limit.perSecond} per second, bursts of ${limit.burst}); retry after ${retryAfterSeconds} s`,
    { scope, retryAfterSeconds, limit: { perSecond: limit.perSecond, burst: limit.burst } },
  );
}
