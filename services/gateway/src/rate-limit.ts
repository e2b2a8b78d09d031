import { createHash } from "node:crypto";
import { type Actor, DomainError } from "@svc/contracts";
import type { Logger } from "@svc/telemetry";
import { type BucketLimit, type BucketStore, MemoryBucketStore } from "./bucket-store";

export interface RateLimits {
  perKey: BucketLimit | undefined;
  perOrganization: BucketLimit | undefined;
  /** For the unauthenticated endpoints that create things (OAuth registration and tokens). */
  perClientIp: BucketLimit | undefined;
  /** Sign-in links mailed to one address, whoever asks. */
  emailPerAddress?: BucketLimit | undefined;
  /** Sign-in links one client address asks for, whatever the addresses. */
  emailPerClient?: BucketLimit | undefined;
}

export type RateScope = "key" | "organization" | "clientIp" | "emailAddress" | "emailClient";

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

  /**
   * A sign-in link asked for by e-mail: the client's allowance, then the address's (kept under a hash:
   * the shared store never holds addresses). A client over its limit takes nothing from the address's.
   */
  checkEmailSignIn(ip: string, email: string): Promise<RateDecision> {
    const address = createHash("sha256").update(email).digest("base64url");
    return this.check([
      ["emailClient", bucketKey("mail-ip", ip), this.limits.emailPerClient],
      ["emailAddress", bucketKey("mail-to", address), this.limits.emailPerAddress],
    ]);
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
  emailAddress: "sign-in links to this e-mail address",
  emailClient: "sign-in links from this client address",
};

/** The 429 a denial becomes, in the API's error vocabulary; `Retry-After` comes from its details. */
export function rateLimitedError(denial: Extract<RateDecision, { allowed: false }>): DomainError {
  const { scope, limit, retryAfterSeconds } = denial;
  return new DomainError(
    "rate_limited",
    `Too many requests for ${scopeNames[scope]} (${rateOf(limit)}); retry after ${retryAfterSeconds} s`,
    { scope, retryAfterSeconds, limit: { perSecond: limit.perSecond, burst: limit.burst } },
  );
}

/** Per second for request limits; per hour for the slow allowances (sign-in mail), which read better so. */
const rateOf = (limit: BucketLimit): string =>
  limit.perSecond < 0.1
    ? `at most ${Math.round(limit.perSecond * 3600)} per hour`
    : `at most ${limit.perSecond} per second, bursts of ${limit.burst}`;
