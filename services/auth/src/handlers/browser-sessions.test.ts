import { callOperation } from "@svc/bus";
import {
  type CredentialRevokedEvent,
  createdSessionSchema,
  issuedSignInCodeSchema,
  operations,
  subjects,
} from "@svc/contracts";
import { availableBackends } from "@svc/testing";
import { describe, expect, it, vi } from "vitest";
import { defaultSessionLifetimes } from "../domain/sessions";
import { hashToken } from "../domain/tokens";
import { deleteExpiredSignInCodes } from "../repositories/browser-sessions";
import { authSuite, failureOf, raw } from "../test-support";

const MINUTE = 60_000;
const lifetimes = {
  idleMs: 30 * MINUTE,
  absoluteMs: 24 * 60 * MINUTE,
  signInCodeMs: 15 * MINUTE,
  invitationMs: 7 * 24 * 60 * MINUTE,
};

const sessionEnded = {
  status: 401,
  code: "unauthenticated",
  message:
    "Your session has ended (signed out, idle too long, its key revoked, or your membership removed); sign in again",
};
const invalidKey = {
  status: 401,
  code: "unauthenticated",
  message: "The API key is not valid; it may have been revoked",
};
const codeRefused = (reason: "used" | "expired" | "unknown" | "revoked") => ({
  status: 401,
  code: "unauthenticated",
  message: expect.stringMatching(/^This sign-in link (does not work|no longer works)/),
  details: { reason },
});

describe.each(availableBackends())("browser sessions (%s)", (backendName) => {
  let now = new Date("2026-03-01T09:00:00Z");
  const auth = authSuite(backendName, { clock: () => now, sessionLifetimes: lifetimes });

  const openSession = async (input: unknown) =>
    createdSessionSchema.parse(await auth.ask(subjects.sessions.create, input));
  const issueCode = async (apiKey: string) =>
    issuedSignInCodeSchema.parse(await auth.ask(subjects.sessions.issueSignInCode, { apiKey }));
  const revocations = () => {
    const events: CredentialRevokedEvent[] = [];
    const subscription = auth.bus.subscribe(subjects.auth.credentialRevoked, (event) => {
      events.push(event as CredentialRevokedEvent);
    });
    return { events, stop: () => subscription.unsubscribe() };
  };

  it("opens a session that acts with its key's organisation and role, as itself", async () => {
    const { organization, owner } = await auth.makeOrganization();
    const member = await auth.makeKey(owner, "member");

    const session = await openSession({ apiKey: member.key.token });

    expect(session.token).toMatch(/^svc_ss_[A-Za-z0-9_-]{43}$/);
    expect(session.expiresAt).toBe(new Date(now.getTime() + lifetimes.absoluteMs).toISOString());
    expect(await auth.verify(session.token)).toEqual({
      organizationId: organization.id,
      role: "member",
      actor: { kind: "session", id: session.sessionId },
      sessionId: session.sessionId,
      expiresAt: session.expiresAt,
    });
  });

  it("keeps only a hash of the session token", async () => {
    const { ownerKey } = await auth.makeOrganization();
    const session = await openSession({ apiKey: ownerKey.token });

    const stored = await auth.db
      .selectFrom("browser_sessions")
      .selectAll()
      .where("id", "=", session.sessionId)
      .executeTakeFirstOrThrow();
    expect(stored.token_hash).toBe(hashToken(session.token));
    expect(JSON.stringify(stored)).not.toContain(session.token);
  });

  it("refuses an unknown, malformed or revoked key, saying no more than that", async () => {
    const { owner } = await auth.makeOrganization();
    const admin = await auth.makeKey(owner, "admin");
    await callOperation(auth.bus, operations.deleteApiKey, owner, raw({ params: { id: admin.key.id } }));

    for (const input of [
      { apiKey: `svc_${"x".repeat(43)}` },
      { apiKey: "not a key" },
      { apiKey: admin.key.token },
      { apiKey: 42 },
      {},
      { apiKey: "svc_x", signInCode: "svc_sc_y" },
    ]) {
      expect(await failureOf(openSession(input))).toEqual(invalidKey);
    }
  });

  it("refuses a session token after sign-out, and tells every gateway", async () => {
    const { ownerKey } = await auth.makeOrganization();
    const session = await openSession({ apiKey: ownerKey.token });
    const heard = revocations();

    await auth.ask(subjects.sessions.end, { token: session.token });

    expect(await failureOf(auth.verify(session.token))).toEqual(sessionEnded);
    await vi.waitFor(() =>
      expect(heard.events).toEqual([{ actor: { kind: "session", id: session.sessionId } }]),
    );
    // Signing out twice is no error and tells no one again.
    await auth.ask(subjects.sessions.end, { token: session.token });
    heard.stop();
    expect(heard.events).toHaveLength(1);
  });

  it("ends a session when its key is revoked, and tells every gateway", async () => {
    const { owner } = await auth.makeOrganization();
    const admin = await auth.makeKey(owner, "admin");
    const first = await openSession({ apiKey: admin.key.token });
    const second = await openSession({ apiKey: admin.key.token });
    const heard = revocations();

    await callOperation(auth.bus, operations.deleteApiKey, owner, raw({ params: { id: admin.key.id } }));

    expect(await failureOf(auth.verify(first.token))).toEqual(sessionEnded);
    expect(await failureOf(auth.verify(second.token))).toEqual(sessionEnded);
    await vi.waitFor(() =>
      expect(heard.events).toEqual(
        expect.arrayContaining([
          { actor: { kind: "session", id: first.sessionId } },
          { actor: { kind: "session", id: second.sessionId } },
        ]),
      ),
    );
    heard.stop();
  });

  it("ends a session left idle, and keeps one in use alive until its absolute end", async () => {
    const { ownerKey } = await auth.makeOrganization();
    const idle = await openSession({ apiKey: ownerKey.token });
    const busy = await openSession({ apiKey: ownerKey.token });
    const start = now;
    try {
      // Used every 20 minutes: the idle limit (30) never passes, but the absolute one (24 h) does.
      for (let minutes = 20; minutes < 24 * 60; minutes += 20) {
        now = new Date(start.getTime() + minutes * MINUTE);
        await auth.verify(busy.token);
        await vi.waitFor(async () => {
          const row = await auth.db
            .selectFrom("browser_sessions")
            .select("last_seen_at")
            .where("id", "=", busy.sessionId)
            .executeTakeFirstOrThrow();
          expect(row.last_seen_at.getTime()).toBe(now.getTime());
        });
        if (minutes === 40) expect(await failureOf(auth.verify(idle.token))).toEqual(sessionEnded);
      }
      now = new Date(start.getTime() + 24 * 60 * MINUTE);
      expect(await failureOf(auth.verify(busy.token))).toEqual(sessionEnded);
    } finally {
      now = start;
    }
  });

  it("opens a session with a sign-in code once, and only before it expires", async () => {
    const { organization, ownerKey } = await auth.makeOrganization();
    const issued = await issueCode(ownerKey.token);
    expect(issued.code).toMatch(/^svc_sc_[A-Za-z0-9_-]{43}$/);
    expect(issued.expiresAt).toBe(new Date(now.getTime() + lifetimes.signInCodeMs).toISOString());

    const session = await openSession({ signInCode: issued.code });
    expect(await auth.verify(session.token)).toMatchObject({
      organizationId: organization.id,
      role: "owner",
    });
    expect(await failureOf(openSession({ signInCode: issued.code }))).toEqual(codeRefused("used"));

    const late = await issueCode(ownerKey.token);
    const start = now;
    now = new Date(start.getTime() + lifetimes.signInCodeMs);
    try {
      expect(await failureOf(openSession({ signInCode: late.code }))).toEqual(codeRefused("expired"));
    } finally {
      now = start;
    }
    expect(await failureOf(openSession({ signInCode: "svc_sc_unknown" }))).toEqual(codeRefused("unknown"));
  });

  it("lets only one of two sign-ins racing with the same code through", async () => {
    const { ownerKey } = await auth.makeOrganization();
    const { code } = await issueCode(ownerKey.token);

    const results = await Promise.allSettled([
      openSession({ signInCode: code }),
      openSession({ signInCode: code }),
    ]);

    expect(results.map((r) => r.status).sort()).toEqual(["fulfilled", "rejected"]);
  });

  it("refuses a sign-in code whose key was revoked meanwhile, and a code for a revoked key", async () => {
    const { owner } = await auth.makeOrganization();
    const admin = await auth.makeKey(owner, "admin");
    const { code } = await issueCode(admin.key.token);
    await callOperation(auth.bus, operations.deleteApiKey, owner, raw({ params: { id: admin.key.id } }));

    expect(await failureOf(openSession({ signInCode: code }))).toEqual(codeRefused("revoked"));
    expect(await failureOf(issueCode(admin.key.token))).toEqual(invalidKey);
  });

  it("deletes sign-in codes once they have expired, and only those", async () => {
    const { ownerKey } = await auth.makeOrganization();
    const old = await issueCode(ownerKey.token);
    const start = now;
    now = new Date(start.getTime() + lifetimes.signInCodeMs / 2);
    const fresh = await issueCode(ownerKey.token);
    now = start;
    const exists = async (code: string) =>
      (await auth.db
        .selectFrom("sign_in_codes")
        .select("code_hash")
        .where("code_hash", "=", hashToken(code))
        .executeTakeFirst()) !== undefined;

    await deleteExpiredSignInCodes(auth.db, new Date(Date.parse(old.expiresAt) + 1));

    expect(await exists(old.code)).toBe(false);
    expect(await exists(fresh.code)).toBe(true);
  });

  it("defaults to sessions that idle out after 8 hours and end after 7 days", () => {
    expect(defaultSessionLifetimes).toEqual({
      idleMs: 8 * 60 * MINUTE,
      absoluteMs: 7 * 24 * 60 * MINUTE,
      signInCodeMs: 15 * MINUTE,
      invitationMs: 7 * 24 * 60 * MINUTE,
    });
  });
});
