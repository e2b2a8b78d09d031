import { availableBackends } from "@svc/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type AuthHarness, failureOf, makeOrganization, startAuth, verify } from "../test-support";
import { ensureBootstrap } from "./ensure-bootstrap";

const BOOTSTRAP_KEY = "svc_chosen-by-the-operator-0123456789";

describe.each(availableBackends())("bootstrap (%s)", (backendName) => {
  let auth: AuthHarness;
  beforeEach(async () => {
    auth = await startAuth(backendName);
  });
  afterEach(async () => {
    await auth?.close();
  });

  const counts = async () => ({
    organizations: (await auth.db.selectFrom("organizations").select("id").execute()).length,
    apiKeys: (await auth.db.selectFrom("api_keys").select("id").execute()).length,
  });

  it("creates a default organisation with a generated owner key once, and nothing on later starts", async () => {
    const first = await ensureBootstrap(auth.db);

    expect(first).toEqual({
      organizationId: expect.any(String),
      createdToken: expect.stringMatching(/^svc_/),
    });
    const organization = await auth.db
      .selectFrom("organizations")
      .select(["id", "name", "slug"])
      .executeTakeFirstOrThrow();
    expect(organization).toEqual({ id: first.organizationId, name: "default", slug: "default" });
    expect(await verify(auth.bus, first.createdToken)).toMatchObject({
      organizationId: first.organizationId,
      role: "owner",
    });

    expect(await ensureBootstrap(auth.db)).toEqual({ organizationId: first.organizationId });
    expect(await counts()).toEqual({ organizations: 1, apiKeys: 1 });
  });

  it("hands the generated key to saveCreatedToken before committing it, and creates nothing if saving fails", async () => {
    const saved: string[] = [];
    await expect(
      ensureBootstrap(auth.db, {
        saveCreatedToken: (token) => {
          saved.push(token);
          throw new Error("disk full");
        },
      }),
    ).rejects.toThrow("disk full");
    expect(await counts()).toEqual({ organizations: 0, apiKeys: 0 });
    expect(await failureOf(verify(auth.bus, saved[0]))).toMatchObject({ status: 401 });

    const first = await ensureBootstrap(auth.db, { saveCreatedToken: (token) => void saved.push(token) });

    expect(saved).toHaveLength(2);
    expect(first.createdToken).toBe(saved[1]);
    expect(await verify(auth.bus, saved[1])).toMatchObject({ organizationId: first.organizationId });
    expect(await counts()).toEqual({ organizations: 1, apiKeys: 1 });
    // Later starts have nothing to save.
    await ensureBootstrap(auth.db, { saveCreatedToken: (token) => void saved.push(token) });
    expect(saved).toHaveLength(2);
  });

  it("makes a chosen key the first owner key without echoing it back", async () => {
    const first = await ensureBootstrap(auth.db, { token: BOOTSTRAP_KEY });
    const again = await ensureBootstrap(auth.db, { token: BOOTSTRAP_KEY });

    expect(first).toEqual({ organizationId: expect.any(String) });
    expect(again).toEqual(first);
    expect(await verify(auth.bus, BOOTSTRAP_KEY)).toMatchObject({
      organizationId: first.organizationId,
      role: "owner",
    });
    expect(await counts()).toEqual({ organizations: 1, apiKeys: 1 });
  });

  it("adds a newly chosen key as an owner key of the oldest organisation", async () => {
    const { organizationId } = await ensureBootstrap(auth.db);
    await makeOrganization(auth.bus);

    expect(await ensureBootstrap(auth.db, { token: BOOTSTRAP_KEY })).toEqual({ organizationId });
    expect(await ensureBootstrap(auth.db, { token: BOOTSTRAP_KEY })).toEqual({ organizationId });

    expect(await verify(auth.bus, BOOTSTRAP_KEY)).toMatchObject({ organizationId, role: "owner" });
    expect(await counts()).toEqual({ organizations: 2, apiKeys: 3 });
  });

  it("does not bring back a bootstrap key that was revoked", async () => {
    await ensureBootstrap(auth.db);
    await ensureBootstrap(auth.db, { token: BOOTSTRAP_KEY });
    await auth.db
      .updateTable("api_keys")
      .set({ revoked_at: new Date() })
      .where("name", "=", "Bootstrap key")
      .execute();

    await ensureBootstrap(auth.db, { token: BOOTSTRAP_KEY });

    expect(await failureOf(verify(auth.bus, BOOTSTRAP_KEY))).toMatchObject({ status: 401 });
    expect(await counts()).toEqual({ organizations: 1, apiKeys: 2 });
  });

  it("creates one organisation when several processes start at once", async () => {
    const results = await Promise.all(
      [1, 2, 3].map(() => ensureBootstrap(auth.db, { token: BOOTSTRAP_KEY })),
    );

    expect(new Set(results.map((result) => result.organizationId)).size).toBe(1);
    expect(await counts()).toEqual({ organizations: 1, apiKeys: 1 });
  });

  it("refuses a chosen key that does not start with svc_", async () => {
    await expect(ensureBootstrap(auth.db, { token: "my-secret" })).rejects.toThrow(
      "The bootstrap key must start with svc_ and be at most 512 printable characters without spaces",
    );
    expect(await counts()).toEqual({ organizations: 0, apiKeys: 0 });
  });
});
