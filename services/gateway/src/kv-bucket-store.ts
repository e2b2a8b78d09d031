import { type KV, type NatsConnection, StorageType } from "nats";
import {
  ALLOWED,
  type BucketLimit,
  type BucketState,
  type BucketStore,
  refillAndTake,
  type TakeResult,
} from "./bucket-store";

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
    /** Copies JetStream keeps of the bucket when this store creates it (SVC_JETSTREAM_REPLICAS). */
    private readonly replicas = 1,
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
      // On a cluster, copies on other servers: losing one server loses neither the buckets nor the
      // quorum that takes a lease.
      replicas: this.replicas,
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
