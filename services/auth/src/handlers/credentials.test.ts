import { callOperation } from "@svc/bus";
import { operations } from "@svc/contracts";
import { availableBackends, harnessForSuite } from "@svc/testing";
import { describe, expect, it, vi } from "vitest";
import { failureOf, makeKey, makeOrganization, raw, startAuth, verify } from "../test-support";

const invalidKey = {
  status: 401,
  code: "unauthenticated",
  message: "The API key is not valid; it may have been revoked",
};

describe.each(availableBackends())("credential checks (%s)", (backendName) => {
  const auth = harnessForSuite(() => startAuth(backendName));

  const lastUsedAt = async (id: string) =>
    (
      await auth.db
        .selectFrom("api_keys")
        .select("last_used_at")
        .where("id", "=", id)
        .executeTakeFirstOrThrow()
    ).last_used_at;

  it("answers who a valid token is", async () => {
    const { organization, owner } = await makeOrganization(auth.bus);
    const member = await makeKey(auth.bus, owner, "member");

    expect(await verify(auth.bus, member.key.token)).toEqual({
      organizationId: organization.id,
      role: "member",
      actor: { kind: "apiKey", id: member.key.id },
    });
  });

  it("rejects an unknown token", async () => {
    expect(await failureOf(verify(auth.bus, `svc_${"x".repeat(43)}`))).toEqual(invalidKey);
  });

  it("rejects malformed tokens the same way", async () => {
    for (const token of ["not-a-key", "svc_", "svc_ with spaces", `svc_${"a".repeat(600)}`, "", 42]) {
      expect(await failureOf(verify(auth.bus, token))).toEqual(invalidKey);
    }
  });

  it("rejects a revoked token", async () => {
    const { owner } = await makeOrganization(auth.bus);
    const admin = await makeKey(auth.bus, owner, "admin");
    await callOperation(auth.bus, operations.deleteApiKey, owner, raw({ params: { id: admin.key.id } }));

    expect(await failureOf(verify(auth.bus, admin.key.token))).toEqual(invalidKey);
  });

  it("records a key's use at most once a minute", async () => {
    const { owner } = await makeOrganization(auth.bus);
    const { key } = await makeKey(auth.bus, owner, "member");

    await verify(auth.bus, key.token);
    await vi.waitFor(async () => expect(await lastUsedAt(key.id)).not.toBeNull());
    const first = await lastUsedAt(key.id);

    await verify(auth.bus, key.token);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await lastUsedAt(key.id)).toEqual(first);

    const twoMinutesAgo = new Date(Date.now() - 120_000);
    await auth.db
      .updateTable("api_keys")
      .set({ last_used_at: twoMinutesAgo })
      .where("id", "=", key.id)
      .execute();
    await verify(auth.bus, key.token);
    await vi.waitFor(async () =>
      expect((await lastUsedAt(key.id))?.getTime()).toBeGreaterThan(Date.now() - 10_000),
    );

    const shown = await callOperation(auth.bus, operations.getApiKey, owner, raw({ params: { id: key.id } }));
    expect(shown.lastUsedAt).toBe((await lastUsedAt(key.id))?.toISOString());
  });
});
