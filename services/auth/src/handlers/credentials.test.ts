import { callOperation } from "@svc/bus";
import { operations } from "@svc/contracts";
import { availableBackends } from "@svc/testing";
import { describe, expect, it, vi } from "vitest";
import { authSuite, failureOf, raw } from "../test-support";

const invalidKey = {
  status: 401,
  code: "unauthenticated",
  message: "The API key is not valid; it may have been revoked",
};

describe.each(availableBackends())("credential checks (%s)", (backendName) => {
  const auth = authSuite(backendName);

  const lastUsedAt = async (id: string) =>
    (
      await auth.db
        .selectFrom("api_keys")
        .select("last_used_at")
        .where("id", "=", id)
        .executeTakeFirstOrThrow()
    ).last_used_at;

  it("answers who a valid token is", async () => {
    const { organization, owner } = await auth.makeOrganization();
    const member = await auth.makeKey(owner, "member");

    expect(await auth.verify(member.key.token)).toEqual({
      organizationId: organization.id,
      role: "member",
      actor: { kind: "apiKey", id: member.key.id },
    });
  });

  it("rejects an unknown token", async () => {
    expect(await failureOf(auth.verify(`svc_${"x".repeat(43)}`))).toEqual(invalidKey);
  });

  it("rejects malformed tokens the same way", async () => {
    for (const token of ["not-a-key", "svc_", "svc_ with spaces", `svc_${"a".repeat(600)}`, "", 42]) {
      expect(await failureOf(auth.verify(token))).toEqual(invalidKey);
    }
  });

  it("rejects a revoked token", async () => {
    const { owner } = await auth.makeOrganization();
    const admin = await auth.makeKey(owner, "admin");
    await callOperation(auth.bus, operations.deleteApiKey, owner, raw({ params: { id: admin.key.id } }));

    expect(await failureOf(auth.verify(admin.key.token))).toEqual(invalidKey);
  });

  it("records a key's use at most once a minute", async () => {
    const { owner } = await auth.makeOrganization();
    const { key } = await auth.makeKey(owner, "member");

    await auth.verify(key.token);
    await vi.waitFor(async () => expect(await lastUsedAt(key.id)).not.toBeNull());
    const first = await lastUsedAt(key.id);

    await auth.verify(key.token);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await lastUsedAt(key.id)).toEqual(first);

    const twoMinutesAgo = new Date(Date.now() - 120_000);
    await auth.db
      .updateTable("api_keys")
      .set({ last_used_at: twoMinutesAgo })
      .where("id", "=", key.id)
      .execute();
    await auth.verify(key.token);
    await vi.waitFor(async () =>
      expect((await lastUsedAt(key.id))?.getTime()).toBeGreaterThan(Date.now() - 10_000),
    );

    const shown = await callOperation(auth.bus, operations.getApiKey, owner, raw({ params: { id: key.id } }));
    expect(shown.lastUsedAt).toBe((await lastUsedAt(key.id))?.toISOString());
  });
});
