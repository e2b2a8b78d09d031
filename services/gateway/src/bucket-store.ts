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

export interface BucketState {
  tokens: number;
  at: number;
}

export const ALLOWED: TakeResult = { allowed: true, retryAfterMs: 0 };

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
