import { createHash } from "node:crypto";
import { type Bus, callSubject } from "@svc/bus";
import {
  credentialRevokedEventSchema,
  DomainError,
  subjects,
  type VerifiedCredential,
  verifiedCredentialSchema,
} from "@svc/contracts";

/** Keyed by a hash: the map never holds a usable secret. */
const keyOf = (token: string): string => createHash("sha256").update(token).digest("hex");

interface Entry {
  expiresAt: number;
  result: Promise<VerifiedCredential>;
  /** Set once the verification has answered, so that revocation can evict synchronously. */
  credential?: VerifiedCredential;
}

/**
 * Verifies bearer credentials with `auth`, remembering each answer for a short time (a second by
 * default, never more than five, and never past the credential's own expiry) and forgetting a
 * credential at once when `auth` announces its revocation. Concurrent requests with the same credential
 * share one verification.
 */
export class CredentialCache {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly bus: Bus,
    private readonly ttlMs: number,
    private readonly timeoutMs: number,
  ) {
    bus.subscribe(subjects.auth.credentialRevoked, (payload) => {
      const event = credentialRevokedEventSchema.safeParse(payload);
      if (event.success) this.evictActor(event.data.actor.id);
    });
  }

  verify(token: string, requestId: string): Promise<VerifiedCredential> {
    const key = keyOf(token);
    const now = Date.now();
    const cached = this.entries.get(key);
    if (cached && cached.expiresAt > now) return cached.result;
    const result = this.ask(token, requestId);
    const entry: Entry = { expiresAt: now + this.ttlMs, result };
    this.entries.set(key, entry);
    result.then(
      (credential) => {
        entry.credential = credential;
        // An OAuth access token that expires within the cache's time must stop working when it does.
        if (credential.expiresAt !== undefined) {
          entry.expiresAt = Math.min(entry.expiresAt, Date.parse(credential.expiresAt));
        }
      },
      () => undefined,
    );
    // Transient failures (a service down) are not remembered; a verdict on the credential is.
    result.catch((error: unknown) => {
      if (!(error instanceof DomainError && error.code === "unauthenticated")) this.entries.delete(key);
    });
    this.sweep(now);
    return result;
  }

  /** Forgets a credential this gateway has just ended (a sign-out), without waiting for the event. */
  forget(token: string): void {
    this.entries.delete(keyOf(token));
  }

  private async ask(token: string, requestId: string): Promise<VerifiedCredential> {
    const data = await callSubject(
      this.bus,
      subjects.auth.verify,
      { context: { organizationId: null, role: null, actor: null, requestId }, input: { token } },
      { timeoutMs: this.timeoutMs },
    );
    return verifiedCredentialSchema.parse(data);
  }

  /** `actorId` names a key, a grant or a session; a person's session is known by its session id. */
  private evictActor(actorId: string): void {
    for (const [key, entry] of this.entries) {
      // A verification still in flight may be for this actor: drop it too, to be safe.
      const { credential } = entry;
      if (!credential || credential.actor.id === actorId || credential.sessionId === actorId) {
        this.entries.delete(key);
      }
    }
  }

  private sweep(now: number): void {
    if (this.entries.size < 10_000) return;
    for (const [key, entry] of this.entries) if (entry.expiresAt <= now) this.entries.delete(key);
  }
}
