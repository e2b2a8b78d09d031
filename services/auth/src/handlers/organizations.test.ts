import { createHash } from "node:crypto";
import { callOperation } from "@svc/bus";
import { operations } from "@svc/contracts";
import { availableBackends } from "@svc/testing";
import { describe, expect, it } from "vitest";
import { anonymousContext, authSuite, failureOf, issued, raw, uniqueSuffix } from "../test-support";

describe.each(availableBackends())("organisations and account (%s)", (backendName) => {
  const auth = authSuite(backendName);

  it("creates an organisation with a first owner key whose token is returned once", async () => {
    const name = `Acme Labs ${uniqueSuffix()}`;
    const created = await callOperation(
      auth.bus,
      operations.createOrganization,
      anonymousContext(),
      raw({ body: { name } }),
    );

    const { token } = issued(created.apiKey);
    expect(token).toMatch(/^svc_[A-Za-z0-9_-]{43}$/);
    expect(created).toEqual({
      organization: {
        id: expect.stringMatching(/^[a-z0-9]{24}$/),
        name,
        slug: name.toLowerCase().replaceAll(" ", "-"),
        createdAt: expect.any(String),
      },
      apiKey: {
        id: expect.stringMatching(/^[a-z0-9]{24}$/),
        name: "First owner key",
        role: "owner",
        maskedToken: `svc_…${token.slice(-4)}`,
        createdAt: expect.any(String),
        lastUsedAt: null,
        createdBy: null,
        token,
        tokenAlreadyShown: false,
      },
      owner: null,
    });
  });

  it("stores only the SHA-256 hash and the last four characters of a key's token", async () => {
    const { ownerKey } = await auth.makeOrganization();

    const row = await auth.db
      .selectFrom("api_keys")
      .selectAll()
      .where("id", "=", ownerKey.id)
      .executeTakeFirstOrThrow();
    expect(row.token_hash).toBe(createHash("sha256").update(ownerKey.token).digest("hex"));
    expect(row.token_last4).toBe(ownerKey.token.slice(-4));
    expect(Object.values(row).map(String)).not.toContain(ownerKey.token);
  });

  it("appends -2, -3 to the slug of organisations whose names collide", async () => {
    const name = `Same Name ${uniqueSuffix()}`;
    const slugs = [];
    for (let i = 0; i < 3; i++) slugs.push((await auth.makeOrganization(name)).organization.slug);

    const base = name.toLowerCase().replaceAll(" ", "-");
    expect(slugs).toEqual([base, `${base}-2`, `${base}-3`]);
  });

  it("rejects an organisation without a name", async () => {
    const failure = await failureOf(
      callOperation(
        auth.bus,
        operations.createOrganization,
        anonymousContext(),
        raw({ body: { name: " " } }),
      ),
    );
    expect(failure).toMatchObject({
      status: 400,
      code: "validation_failed",
      message: "Request is invalid: body.name: must not be empty",
    });
  });

  it("tells a key its organisation and role", async () => {
    const { organization, owner } = await auth.makeOrganization();
    const viewer = await auth.makeKey(owner, "viewer");

    const account = await callOperation(auth.bus, operations.getAccount, viewer.context, raw());

    expect(account).toEqual({
      organization: { id: organization.id, name: organization.name, slug: organization.slug },
      role: "viewer",
      user: null,
    });
  });

  it("refuses the account of a caller without an API key", async () => {
    const failure = await failureOf(
      callOperation(auth.bus, operations.getAccount, anonymousContext(), raw()),
    );
    expect(failure).toEqual({
      status: 401,
      code: "unauthenticated",
      message: "This operation needs an API key",
    });
  });
});
