import { InProcessBus } from "@svc/bus";
import { subjects, type VerifiedCredential } from "@svc/contracts";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { CredentialCache } from "./credential-cache";

const oauth = (grantId: string, expiresAt?: Date): VerifiedCredential => ({
  organizationId: "org1",
  role: "member",
  actor: { kind: "oauth", id: grantId },
  ...(expiresAt ? { expiresAt: expiresAt.toISOString() } : {}),
});

describe("CredentialCache", () => {
  let bus: InProcessBus;
  let answers: Map<string, VerifiedCredential>;
  let asked: string[];

  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["Date"] });
    bus = new InProcessBus();
    answers = new Map();
    asked = [];
    bus.serve(subjects.auth.verify, async (request) => {
      const token = (request.input as { token: string }).token;
      asked.push(token);
      const credential = answers.get(token);
      return credential
        ? { ok: true, data: credential }
        : { ok: false, error: { code: "unauthenticated", message: "no" } };
    });
  });
  afterEach(async () => {
    vi.useRealTimers();
    await bus.close();
  });

  it("remembers a verification for its time, then asks again", async () => {
    const cache = new CredentialCache(bus, 5_000, 1_000);
    answers.set("svc_key", { organizationId: "org1", role: "owner", actor: { kind: "apiKey", id: "k1" } });
    await cache.verify("svc_key", "r1");
    vi.advanceTimersByTime(4_999);
    await cache.verify("svc_key", "r2");
    expect(asked).toEqual(["svc_key"]);
    vi.advanceTimersByTime(1);
    await cache.verify("svc_key", "r3");
    expect(asked).toEqual(["svc_key", "svc_key"]);
  });

  it("never remembers an access token past its own expiry", async () => {
    const cache = new CredentialCache(bus, 5_000, 1_000);
    answers.set("svc_at_1", oauth("g1", new Date(Date.now() + 2_000)));
    expect((await cache.verify("svc_at_1", "r1")).actor.id).toBe("g1");
    vi.advanceTimersByTime(1_999);
    await cache.verify("svc_at_1", "r2");
    expect(asked).toHaveLength(1);
    // auth now says the token has expired; the cache must ask rather than answer from memory.
    answers.delete("svc_at_1");
    vi.advanceTimersByTime(1);
    await expect(cache.verify("svc_at_1", "r3")).rejects.toMatchObject({ code: "unauthenticated" });
    expect(asked).toHaveLength(2);
  });

  it("forgets every token of a grant when its revocation is announced", async () => {
    const cache = new CredentialCache(bus, 5_000, 1_000);
    answers.set("svc_at_a", oauth("g1", new Date(Date.now() + 60_000)));
    answers.set("svc_at_b", oauth("g1", new Date(Date.now() + 60_000)));
    answers.set("svc_at_c", oauth("g2", new Date(Date.now() + 60_000)));
    for (const token of ["svc_at_a", "svc_at_b", "svc_at_c"]) await cache.verify(token, "r");
    answers.clear();
    bus.publish(subjects.auth.credentialRevoked, { actor: { kind: "oauth", id: "g1" } });
    // Events are delivered asynchronously, as over NATS.
    await new Promise((resolve) => setImmediate(resolve));
    await expect(cache.verify("svc_at_a", "r")).rejects.toMatchObject({ code: "unauthenticated" });
    await expect(cache.verify("svc_at_b", "r")).rejects.toMatchObject({ code: "unauthenticated" });
    expect((await cache.verify("svc_at_c", "r")).actor.id).toBe("g2");
    expect(asked).toEqual(["svc_at_a", "svc_at_b", "svc_at_c", "svc_at_a", "svc_at_b"]);
  });
});
