import { callOperation, type RawInput } from "@svc/bus";
import { type Operation, operations, type RequestContext } from "@svc/contracts";
import { IDEMPOTENCY_RETENTION_HOURS, pruneIdempotencyRecords } from "@svc/db";
import { availableBackends } from "@svc/testing";
import { describe, expect, it } from "vitest";
import {
  anonymousContext,
  authSuite,
  failureOf,
  issued,
  raw,
  uniqueSuffix,
  withIdempotencyKey,
} from "../test-support";

const reused = (key: string) => ({
  status: 409,
  code: "idempotency_key_reused",
  message: "This Idempotency-Key was already used with a different request; use a new key for a new request",
  details: { idempotencyKey: key },
});

describe.each(availableBackends())("Idempotency-Key on auth mutations (%s)", (backendName) => {
  const auth = authSuite(backendName);

  /** Sends the same request twice with one key, as a client does when the first reply was lost. */
  async function twice<O extends Operation>(op: O, context: RequestContext, input: RawInput) {
    const keyed = withIdempotencyKey(context, `retry-${uniqueSuffix()}`);
    const first = await callOperation(auth.bus, op, keyed, input);
    const second = await callOperation(auth.bus, op, keyed, input);
    return { first, second, keyed };
  }

  const countWhere = async (table: "projects" | "members" | "api_keys", organizationId: string) =>
    (await auth.db.selectFrom(table).select("id").where("organization_id", "=", organizationId).execute())
      .length;

  it("answers a retried createProject with the first project and creates one", async () => {
    const { organization, owner } = await auth.makeOrganization();

    const { first, second } = await twice(operations.createProject, owner, raw({ body: { name: "Once" } }));

    expect(second).toEqual(first);
    expect(await countWhere("projects", organization.id)).toBe(1);
  });

  it("answers a retried deleteProject with 204 again instead of 404, and deletes nothing else", async () => {
    const { organization, owner } = await auth.makeOrganization();
    await callOperation(auth.bus, operations.createProject, owner, raw({ body: { name: "Gone" } }));
    await callOperation(auth.bus, operations.createProject, owner, raw({ body: { name: "Stays" } }));

    const { first, second } = await twice(
      operations.deleteProject,
      owner,
      raw({ params: { projectSlug: "gone" } }),
    );

    expect([first, second]).toEqual([null, null]);
    expect(await countWhere("projects", organization.id)).toBe(1);
    expect(
      await failureOf(
        callOperation(auth.bus, operations.deleteProject, owner, raw({ params: { projectSlug: "gone" } })),
      ),
    ).toMatchObject({ status: 404 });
  });

  it("answers a retried updateProject with the first answer", async () => {
    const { owner } = await auth.makeOrganization();
    await callOperation(auth.bus, operations.createProject, owner, raw({ body: { name: "Old" } }));

    const { first, second } = await twice(
      operations.updateProject,
      owner,
      raw({ params: { projectSlug: "old" }, body: { name: "New" } }),
    );

    expect(second).toEqual(first);
    expect(first.name).toBe("New");
  });

  it("answers a retried addMember with the first member, its invitation link not again, and adds one", async () => {
    const { organization, owner } = await auth.makeOrganization();

    const { first, second } = await twice(
      operations.addMember,
      owner,
      raw({ body: { email: "ann@example.com", role: "member" } }),
    );

    expect(first.inviteUrl).toMatch(/\/sign-in#code=svc_sc_/);
    expect(second).toEqual({ ...first, inviteUrl: null });
    expect(await countWhere("members", organization.id)).toBe(1);
  });

  it("answers retried updateMember and removeMember with their first answers", async () => {
    const { organization, owner } = await auth.makeOrganization();
    const member = await auth.makeMember(owner, "viewer");

    const changed = await twice(
      operations.updateMember,
      owner,
      raw({ params: { id: member.id }, body: { role: "admin" } }),
    );
    const removed = await twice(operations.removeMember, owner, raw({ params: { id: member.id } }));

    expect(changed.second).toEqual(changed.first);
    expect(changed.first.role).toBe("admin");
    expect([removed.first, removed.second]).toEqual([null, null]);
    expect(await countWhere("members", organization.id)).toBe(0);
  });

  /** The idempotency record of a request, as stored: its text, where a token must never be. */
  const storedRecord = async (organizationId: string, key: string) =>
    JSON.stringify(
      (
        await auth.db
          .selectFrom("idempotency_records")
          .select("response")
          .where("organization_id", "=", organizationId)
          .where("key", "=", key)
          .executeTakeFirstOrThrow()
      ).response,
    );

  it("answers a retried createApiKey with the same key but not its token, which it stores nowhere, and creates one key", async () => {
    const { organization, owner } = await auth.makeOrganization();

    const { first, second, keyed } = await twice(
      operations.createApiKey,
      owner,
      raw({ body: { name: "CI", role: "viewer" } }),
    );

    const { token } = issued(first);
    expect(first.tokenAlreadyShown).toBe(false);
    expect(second).toEqual({ ...first, token: null, tokenAlreadyShown: true });
    expect(await countWhere("api_keys", organization.id)).toBe(2);
    expect(await auth.verify(token)).toMatchObject({ role: "viewer", actor: { id: first.id } });
    const stored = await storedRecord(organization.id, keyed.idempotencyKey as string);
    expect(stored).toContain(first.id);
    expect(stored).not.toContain(token);
    expect(stored).not.toContain(token.slice(4, 20));
    // Another admin of the organisation replaying the request learns nothing it could not list.
    const admin = await auth.makeKey(owner, "admin");
    const replayed = await callOperation(
      auth.bus,
      operations.createApiKey,
      { ...admin.context, idempotencyKey: keyed.idempotencyKey as string },
      raw({ body: { name: "CI", role: "viewer" } }),
    );
    expect(replayed).toEqual(second);
    expect(JSON.stringify(replayed)).not.toContain(token);
  });

  it("answers retried updateApiKey and deleteApiKey with their first answers", async () => {
    const { owner } = await auth.makeOrganization();
    const { key } = await auth.makeKey(owner, "member");

    const renamed = await twice(
      operations.updateApiKey,
      owner,
      raw({ params: { id: key.id }, body: { name: "Renamed" } }),
    );
    const revoked = await twice(operations.deleteApiKey, owner, raw({ params: { id: key.id } }));

    expect(renamed.second).toEqual(renamed.first);
    expect([revoked.first, revoked.second]).toEqual([null, null]);
    expect(await failureOf(auth.verify(key.token))).toMatchObject({ status: 401 });
  });

  it("refuses a key reused with another body or on another operation, and changes nothing", async () => {
    const { organization, owner } = await auth.makeOrganization();
    const keyed = withIdempotencyKey(owner, "reused-key");
    const project = await callOperation(
      auth.bus,
      operations.createProject,
      keyed,
      raw({ body: { name: "A" } }),
    );

    expect(
      await failureOf(callOperation(auth.bus, operations.createProject, keyed, raw({ body: { name: "B" } }))),
    ).toEqual(reused("reused-key"));
    expect(
      await failureOf(
        callOperation(
          auth.bus,
          operations.addMember,
          keyed,
          raw({ body: { email: "ann@example.com", role: "viewer" } }),
        ),
      ),
    ).toEqual(reused("reused-key"));
    expect(
      await failureOf(
        callOperation(
          auth.bus,
          operations.deleteProject,
          keyed,
          raw({ params: { projectSlug: project.slug } }),
        ),
      ),
    ).toEqual(reused("reused-key"));
    expect(await countWhere("projects", organization.id)).toBe(1);
    expect(await countWhere("members", organization.id)).toBe(0);
  });

  it("keeps keys apart per organisation", async () => {
    const ours = await auth.makeOrganization();
    const theirs = await auth.makeOrganization();
    const input = raw({ body: { name: "Same" } });

    const mine = await callOperation(
      auth.bus,
      operations.createProject,
      withIdempotencyKey(ours.owner, "k"),
      input,
    );
    const their = await callOperation(
      auth.bus,
      operations.createProject,
      withIdempotencyKey(theirs.owner, "k"),
      input,
    );

    expect(mine.organizationId).toBe(ours.organization.id);
    expect(their.organizationId).toBe(theirs.organization.id);
  });

  it("does not spend a key on a request that failed", async () => {
    const { owner } = await auth.makeOrganization();
    const existing = await auth.makeMember(owner, "viewer", "ann@example.com");
    const keyed = withIdempotencyKey(owner, "after-failure");
    const add = () =>
      callOperation(
        auth.bus,
        operations.addMember,
        keyed,
        raw({ body: { email: "ann@example.com", role: "admin" } }),
      );

    expect(await failureOf(add())).toMatchObject({ status: 409, code: "conflict" });
    await callOperation(auth.bus, operations.removeMember, owner, raw({ params: { id: existing.id } }));

    expect(await add()).toMatchObject({ email: "ann@example.com", role: "admin" });
  });

  it("answers a retried createOrganization with the first organisation and owner key but not its token, and creates one", async () => {
    const name = `Operator retry ${uniqueSuffix()}`;
    const organizationsNamed = async () =>
      (await auth.db.selectFrom("organizations").select("id").where("name", "=", name).execute()).length;

    const { first, second, keyed } = await twice(
      operations.createOrganization,
      anonymousContext(),
      raw({ body: { name } }),
    );

    const { token } = issued(first.apiKey);
    expect(token).toMatch(/^svc_/);
    expect(second).toEqual({ ...first, apiKey: { ...first.apiKey, token: null, tokenAlreadyShown: true } });
    expect(await organizationsNamed()).toBe(1);
    expect(await auth.verify(token)).toMatchObject({
      organizationId: first.organization.id,
      role: "owner",
    });
    const stored = await storedRecord("@operator", keyed.idempotencyKey as string);
    expect(stored).toContain(first.apiKey.id);
    expect(stored).not.toContain(token);
    expect(stored).not.toContain(token.slice(4, 20));
    expect(
      await failureOf(
        callOperation(auth.bus, operations.createOrganization, keyed, raw({ body: { name: `${name} 2` } })),
      ),
    ).toEqual(reused(keyed.idempotencyKey as string));
    expect(await organizationsNamed()).toBe(1);
  });

  it("keeps operator keys apart from an organisation's keys of the same name", async () => {
    const { owner } = await auth.makeOrganization();
    const key = `shared-${uniqueSuffix()}`;
    await callOperation(
      auth.bus,
      operations.createProject,
      withIdempotencyKey(owner, key),
      raw({ body: { name: "P" } }),
    );

    const created = await callOperation(
      auth.bus,
      operations.createOrganization,
      withIdempotencyKey(anonymousContext(), key),
      raw({ body: { name: `Org ${uniqueSuffix()}` } }),
    );

    expect(created.organization.id).toMatch(/^[a-z0-9]{24}$/);
  });

  it("remembers a key for at least 24 hours and forgets it once the retention has passed", async () => {
    const { organization, owner } = await auth.makeOrganization();
    const keyed = withIdempotencyKey(owner, `kept-${uniqueSuffix()}`);
    const created = await callOperation(
      auth.bus,
      operations.createProject,
      keyed,
      raw({ body: { name: "Kept" } }),
    );
    const hours = (n: number) => new Date(Date.now() + n * 60 * 60 * 1000);

    await pruneIdempotencyRecords(auth.db, hours(24));
    expect(
      await callOperation(auth.bus, operations.createProject, keyed, raw({ body: { name: "Kept" } })),
    ).toEqual(created);
    expect(
      await failureOf(
        callOperation(auth.bus, operations.createProject, keyed, raw({ body: { name: "Other" } })),
      ),
    ).toMatchObject({ status: 409, code: "idempotency_key_reused" });

    await pruneIdempotencyRecords(auth.db, hours(IDEMPOTENCY_RETENTION_HOURS + 1));
    // Forgotten: the key now starts a new request instead of replaying or refusing.
    const fresh = await callOperation(
      auth.bus,
      operations.createProject,
      keyed,
      raw({ body: { name: "Other" } }),
    );
    expect(fresh.id).not.toBe(created.id);
    expect(await countWhere("projects", organization.id)).toBe(2);
  });
});
