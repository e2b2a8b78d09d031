import { callOperation } from "@svc/bus";
import { type CredentialRevokedEvent, operations, subjects } from "@svc/contracts";
import { availableBackends } from "@svc/testing";
import { describe, expect, it } from "vitest";
import { anonymousContext, authSuite, failureOf, issued, raw } from "../test-support";

const keyNotFound = (id: string) => ({
  status: 404,
  code: "not_found",
  message: `API key "${id}" not found; list the organisation's keys to see their ids`,
});

describe.each(availableBackends())("API keys (%s)", (backendName) => {
  const auth = authSuite(backendName);

  const createKey = (context: Parameters<typeof callOperation>[2], body: Record<string, unknown>) =>
    callOperation(auth.bus, operations.createApiKey, context, raw({ body }));
  const revoke = (context: Parameters<typeof callOperation>[2], id: string) =>
    callOperation(auth.bus, operations.deleteApiKey, context, raw({ params: { id } }));

  it("creates a member key by default and shows its token only in the creation response", async () => {
    const { owner, ownerKey } = await auth.makeOrganization();

    const created = await createKey(owner, { name: "  CI pipeline " });

    const { token, tokenAlreadyShown, ...shown } = issued(created);
    expect(token).toMatch(/^svc_[A-Za-z0-9_-]{43}$/);
    expect(tokenAlreadyShown).toBe(false);
    expect(shown).toEqual({
      id: expect.stringMatching(/^[a-z0-9]{24}$/),
      name: "CI pipeline",
      role: "member",
      maskedToken: `svc_…${token.slice(-4)}`,
      createdAt: expect.any(String),
      lastUsedAt: null,
      createdBy: null,
    });
    expect(
      await callOperation(auth.bus, operations.getApiKey, owner, raw({ params: { id: created.id } })),
    ).toEqual(shown);
    const list = await callOperation(auth.bus, operations.listApiKeys, owner, raw());
    expect(list.apiKeys.map((key) => key.id)).toEqual([ownerKey.id, created.id]);
    expect(list.apiKeys[1]).toEqual(shown);
    expect(JSON.stringify(list)).not.toContain(token);
  });

  it("renames a key", async () => {
    const { owner } = await auth.makeOrganization();
    const { key } = await auth.makeKey(owner, "viewer");

    const renamed = await callOperation(
      auth.bus,
      operations.updateApiKey,
      owner,
      raw({ params: { id: key.id }, body: { name: "Dashboard" } }),
    );

    expect(renamed).toMatchObject({ id: key.id, name: "Dashboard", role: "viewer" });
    expect(
      (await callOperation(auth.bus, operations.getApiKey, owner, raw({ params: { id: key.id } }))).name,
    ).toBe("Dashboard");
  });

  it("refuses to create a key with a role above the caller's", async () => {
    const { owner } = await auth.makeOrganization();
    const admin = await auth.makeKey(owner, "admin");

    const failure = await failureOf(createKey(admin.context, { name: "x", role: "owner" }));

    expect(failure).toEqual({
      status: 403,
      code: "forbidden",
      message:
        "This key's role (admin) may not grant the owner role; a new key may have admin, member or viewer",
      details: { role: "owner", grantable: ["admin", "member", "viewer"] },
    });
    const created = await createKey(admin.context, { name: "peer", role: "admin" });
    expect(created.role).toBe("admin");
  });

  it("does not let a viewer key create keys", async () => {
    const { owner } = await auth.makeOrganization();
    const viewer = await auth.makeKey(owner, "viewer");

    const failure = await failureOf(createKey(viewer.context, { name: "x", role: "viewer" }));

    expect(failure).toEqual({
      status: 403,
      code: "forbidden",
      message: "This key's role (viewer) may not do this; createApiKey needs admin or higher",
    });
  });

  it("hides another organisation's keys behind 404", async () => {
    const ours = await auth.makeOrganization();
    const theirs = await auth.makeOrganization();
    const id = theirs.ownerKey.id;

    expect(
      await failureOf(callOperation(auth.bus, operations.getApiKey, ours.owner, raw({ params: { id } }))),
    ).toEqual(keyNotFound(id));
    expect(
      await failureOf(
        callOperation(
          auth.bus,
          operations.updateApiKey,
          ours.owner,
          raw({ params: { id }, body: { name: "mine" } }),
        ),
      ),
    ).toEqual(keyNotFound(id));
    expect(await failureOf(revoke(ours.owner, id))).toEqual(keyNotFound(id));
    const list = await callOperation(auth.bus, operations.listApiKeys, ours.owner, raw());
    expect(list.apiKeys.map((key) => key.id)).toEqual([ours.ownerKey.id]);
    expect((await auth.verify(theirs.ownerKey.token)).actor.id).toBe(id);
  });

  it("revokes a key: it disappears, stops verifying, and every gateway hears of it", async () => {
    const { owner } = await auth.makeOrganization();
    const { key } = await auth.makeKey(owner, "member");
    const gatewayBus = await auth.backend.connectBus();
    const events: CredentialRevokedEvent[] = [];
    const heard = new Promise<void>((resolve) => {
      gatewayBus.subscribe(subjects.auth.credentialRevoked, (event) => {
        events.push(event as CredentialRevokedEvent);
        resolve();
      });
    });
    // A round trip on the gateway's connection proves the server has its subscription.
    expect(
      await gatewayBus.request(subjects.auth.verify, {
        context: anonymousContext(),
        input: { token: "none" },
      }),
    ).toMatchObject({ ok: false, error: { code: "unauthenticated" } });

    expect(await revoke(owner, key.id)).toBeNull();

    await heard;
    expect(events).toEqual([{ actor: { kind: "apiKey", id: key.id } }]);
    const revokedAt = await auth.db
      .selectFrom("api_keys")
      .select("revoked_at")
      .where("id", "=", key.id)
      .executeTakeFirstOrThrow();
    expect(revokedAt.revoked_at).toBeInstanceOf(Date);
    expect(
      await failureOf(callOperation(auth.bus, operations.getApiKey, owner, raw({ params: { id: key.id } }))),
    ).toEqual(keyNotFound(key.id));
    expect(await failureOf(revoke(owner, key.id))).toEqual(keyNotFound(key.id));
    const list = await callOperation(auth.bus, operations.listApiKeys, owner, raw());
    expect(list.apiKeys.map((k) => k.id)).not.toContain(key.id);
    expect(await failureOf(auth.verify(key.token))).toMatchObject({
      status: 401,
      code: "unauthenticated",
    });
  });

  it("keeps the organisation's last owner key", async () => {
    const { owner, ownerKey } = await auth.makeOrganization();
    const lastOwnerFailure = {
      status: 409,
      code: "conflict",
      message:
        "This is the organisation's last active owner key, so revoking it would lock every owner out; create another owner key first, then revoke this one",
    };

    expect(await failureOf(revoke(owner, ownerKey.id))).toEqual({
      ...lastOwnerFailure,
      details: { id: ownerKey.id },
    });

    const second = await auth.makeKey(owner, "owner");
    expect(await revoke(second.context, ownerKey.id)).toBeNull();
    expect(await failureOf(revoke(second.context, second.key.id))).toEqual({
      ...lastOwnerFailure,
      details: { id: second.key.id },
    });
    expect((await auth.verify(second.key.token)).role).toBe("owner");
  });

  it("never leaves an organisation without an owner when two owners revoke each other at once", async () => {
    const { owner, ownerKey } = await auth.makeOrganization();
    const second = await auth.makeKey(owner, "owner");

    const outcomes = await Promise.allSettled([
      revoke(owner, second.key.id),
      revoke(second.context, ownerKey.id),
    ]);

    expect(outcomes.map((outcome) => outcome.status).sort()).toEqual(["fulfilled", "rejected"]);
    const active = await auth.db
      .selectFrom("api_keys")
      .select("id")
      .where("id", "in", [ownerKey.id, second.key.id])
      .where("revoked_at", "is", null)
      .execute();
    expect(active).toHaveLength(1);
  });

  it("does not let an admin revoke an owner key", async () => {
    const { owner, ownerKey } = await auth.makeOrganization();
    await auth.makeKey(owner, "owner");
    const admin = await auth.makeKey(owner, "admin");

    expect(await failureOf(revoke(admin.context, ownerKey.id))).toEqual({
      status: 403,
      code: "forbidden",
      message:
        "This key's role (admin) may not revoke a key with the owner role; use a key with the owner role",
    });
    const member = await auth.makeKey(owner, "member");
    expect(await revoke(admin.context, member.key.id)).toBeNull();
  });
});
