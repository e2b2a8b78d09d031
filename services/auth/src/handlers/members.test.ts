import { callOperation } from "@svc/bus";
import { type Member, operations, type RequestContext, type Role } from "@svc/contracts";
import { availableBackends } from "@svc/testing";
import { describe, expect, it } from "vitest";
import { authSuite, expectCreatedIn, failureOf, raw } from "../test-support";

const memberNotFound = (id: string) => ({
  status: 404,
  code: "not_found",
  message: `Member "${id}" not found; list the organisation's members to see their ids`,
});

const lastOwner = (member: Member, action: "demote" | "remove") => ({
  status: 409,
  code: "conflict",
  message: `"${member.email ?? member.name}" is the organisation's last owner, so the organisation would be left without one; make another member an owner first, then ${action} this one`,
  details: { id: member.id },
});

describe.each(availableBackends())("members (%s)", (backendName) => {
  const auth = authSuite(backendName);

  /** The member as lists show it: the invitation's link is in the first answer only. */
  const add = async (context: RequestContext, email: string, role: Role) => {
    const { inviteUrl: _shownOnce, ...member } = await callOperation(
      auth.bus,
      operations.addMember,
      context,
      raw({ body: { email, role } }),
    );
    return member;
  };
  const changeRole = (context: RequestContext, id: string, role: Role) =>
    callOperation(auth.bus, operations.updateMember, context, raw({ params: { id }, body: { role } }));
  const remove = (context: RequestContext, id: string) =>
    callOperation(auth.bus, operations.removeMember, context, raw({ params: { id } }));
  const list = (context: RequestContext, query: Record<string, unknown> = {}) =>
    callOperation(auth.bus, operations.listMembers, context, raw({ query }));
  const rolesOf = async (organizationId: string) =>
    (
      await auth.db
        .selectFrom("members")
        .innerJoin("users", "users.id", "members.user_id")
        .select(["users.email", "members.role"])
        .where("members.organization_id", "=", organizationId)
        .orderBy("users.email")
        .execute()
    ).map((row) => `${row.email}:${row.role}`);

  it("adds a member with the email trimmed and in lower case, and lists it", async () => {
    const { organization, owner } = await auth.makeOrganization();

    const member = await add(owner, "  Ann.Lee@Example.COM ", "member");

    expectCreatedIn(organization.id, member, {
      userId: expect.stringMatching(/^[a-z0-9]{24}$/),
      email: "ann.lee@example.com",
      name: "ann.lee@example.com",
      role: "member",
      status: "invited",
    });
    expect(await list(owner)).toEqual({ items: [member], nextCursor: null, hasMore: false });
  });

  it("rejects an email that is not an email address, and adds nothing", async () => {
    const { organization, owner } = await auth.makeOrganization();

    for (const email of ["ann", "ann@", "@example.com", "ann @example.com", ""]) {
      expect(await failureOf(add(owner, email, "member"))).toEqual({
        status: 400,
        code: "validation_failed",
        message: "Request is invalid: body.email: must be an email address, like ann@example.com",
        details: {
          issues: [
            {
              path: "body.email",
              message: "must be an email address, like ann@example.com",
              code: "invalid_format",
            },
          ],
        },
      });
    }
    expect(await failureOf(add(owner, "ann@example.com", "superuser" as Role))).toMatchObject({
      status: 400,
      code: "validation_failed",
      details: { issues: [expect.objectContaining({ path: "body.role" })] },
    });
    expect(await rolesOf(organization.id)).toEqual([]);
  });

  it("refuses an email that is already a member, whatever its case", async () => {
    const { organization, owner } = await auth.makeOrganization();
    await add(owner, "ann@example.com", "viewer");

    expect(await failureOf(add(owner, "ANN@example.com", "admin"))).toEqual({
      status: 409,
      code: "conflict",
      message:
        '"ann@example.com" is already a member of this organisation; change their role instead of inviting them again',
      details: { email: "ann@example.com" },
    });
    expect(await rolesOf(organization.id)).toEqual(["ann@example.com:viewer"]);
  });

  it("lets the same email be a member of two organisations", async () => {
    const ours = await auth.makeOrganization();
    const theirs = await auth.makeOrganization();

    const mine = await add(ours.owner, "ann@example.com", "member");
    const their = await add(theirs.owner, "ann@example.com", "owner");

    expect(mine.id).not.toBe(their.id);
    expect((await list(ours.owner)).items).toEqual([mine]);
    expect((await list(theirs.owner)).items).toEqual([their]);
  });

  it("changes a member's role and removes a member", async () => {
    const { organization, owner } = await auth.makeOrganization();
    const member = await add(owner, "ann@example.com", "member");

    const changed = await changeRole(owner, member.id, "admin");

    expect(changed).toEqual({ ...member, role: "admin", updatedAt: changed.updatedAt });
    expect(changed.updatedAt >= member.updatedAt).toBe(true);
    expect(await remove(owner, member.id)).toBeNull();
    expect(await rolesOf(organization.id)).toEqual([]);
    expect(await failureOf(remove(owner, member.id))).toEqual(memberNotFound(member.id));
    expect(await failureOf(changeRole(owner, member.id, "viewer"))).toEqual(memberNotFound(member.id));
  });

  it("lets an admin manage members below owner, but never grant, change or remove an owner", async () => {
    const { organization, owner } = await auth.makeOrganization();
    const admin = await auth.makeKey(owner, "admin");
    const ownerMember = await add(owner, "olga@example.com", "owner");

    expect(await failureOf(add(admin.context, "new@example.com", "owner"))).toEqual({
      status: 403,
      code: "forbidden",
      message:
        "This key's role (admin) may not grant the owner role; a member may have admin, member or viewer",
      details: { role: "owner", grantable: ["admin", "member", "viewer"] },
    });
    expect(await failureOf(changeRole(admin.context, ownerMember.id, "admin"))).toEqual({
      status: 403,
      code: "forbidden",
      message:
        "This key's role (admin) may not change a member with the owner role; use a key with the owner role",
    });
    expect(await failureOf(remove(admin.context, ownerMember.id))).toEqual({
      status: 403,
      code: "forbidden",
      message:
        "This key's role (admin) may not remove a member with the owner role; use a key with the owner role",
    });
    const peer = await add(admin.context, "peer@example.com", "admin");
    expect(await failureOf(changeRole(admin.context, peer.id, "owner"))).toMatchObject({
      status: 403,
      code: "forbidden",
      message:
        "This key's role (admin) may not grant the owner role; a member may have admin, member or viewer",
    });
    expect(await rolesOf(organization.id)).toEqual(["olga@example.com:owner", "peer@example.com:admin"]);

    expect((await changeRole(admin.context, peer.id, "viewer")).role).toBe("viewer");
    expect(await remove(admin.context, peer.id)).toBeNull();
    expect((await changeRole(owner, ownerMember.id, "owner")).role).toBe("owner");
    expect(await rolesOf(organization.id)).toEqual(["olga@example.com:owner"]);
  });

  it("does not let member or viewer keys list, add, change or remove members", async () => {
    const { organization, owner } = await auth.makeOrganization();
    const existing = await add(owner, "ann@example.com", "viewer");

    for (const role of ["member", "viewer"] as const) {
      const { context } = await auth.makeKey(owner, role);
      const forbidden = (operationId: string) => ({
        status: 403,
        code: "forbidden",
        message: `This key's role (${role}) may not do this; ${operationId} needs admin or higher`,
      });
      expect(await failureOf(list(context))).toEqual(forbidden("listMembers"));
      expect(await failureOf(add(context, "bob@example.com", "viewer"))).toEqual(forbidden("addMember"));
      expect(await failureOf(changeRole(context, existing.id, "member"))).toEqual(forbidden("updateMember"));
      expect(await failureOf(remove(context, existing.id))).toEqual(forbidden("removeMember"));
    }
    expect(await rolesOf(organization.id)).toEqual(["ann@example.com:viewer"]);
  });

  it("keeps the last owner member: demoting or removing them is a conflict", async () => {
    const { organization, owner } = await auth.makeOrganization();
    const first = await add(owner, "first@example.com", "owner");

    expect(await failureOf(remove(owner, first.id))).toEqual(lastOwner(first, "remove"));
    expect(await failureOf(changeRole(owner, first.id, "admin"))).toEqual(lastOwner(first, "demote"));
    expect(await rolesOf(organization.id)).toEqual(["first@example.com:owner"]);

    const second = await add(owner, "second@example.com", "owner");
    expect((await changeRole(owner, first.id, "admin")).role).toBe("admin");
    expect(await failureOf(remove(owner, second.id))).toEqual(lastOwner(second, "remove"));
    expect(await failureOf(changeRole(owner, second.id, "viewer"))).toEqual(lastOwner(second, "demote"));
    expect(await remove(owner, first.id)).toBeNull();
    expect(await rolesOf(organization.id)).toEqual(["second@example.com:owner"]);
  });

  it("does not hold back an organisation whose owners are only keys", async () => {
    const { organization, owner } = await auth.makeOrganization();
    const admin = await add(owner, "admin@example.com", "admin");
    const viewer = await add(owner, "viewer@example.com", "viewer");

    expect((await changeRole(owner, admin.id, "member")).role).toBe("member");
    expect(await remove(owner, admin.id)).toBeNull();
    expect(await remove(owner, viewer.id)).toBeNull();
    expect(await rolesOf(organization.id)).toEqual([]);
  });

  it("never leaves the organisation without an owner member when two owners are removed at once", async () => {
    const { organization, owner } = await auth.makeOrganization();
    const first = await add(owner, "first@example.com", "owner");
    const second = await add(owner, "second@example.com", "owner");

    const outcomes = await Promise.allSettled([
      remove(owner, first.id),
      changeRole(owner, second.id, "viewer"),
    ]);

    expect(outcomes.map((outcome) => outcome.status).sort()).toEqual(["fulfilled", "rejected"]);
    const owners = (await rolesOf(organization.id)).filter((entry) => entry.endsWith(":owner"));
    expect(owners).toHaveLength(1);
  });

  it("hides another organisation's members behind 404", async () => {
    const ours = await auth.makeOrganization();
    const theirs = await auth.makeOrganization();
    const their = await add(theirs.owner, "ann@example.com", "member");

    expect(await failureOf(changeRole(ours.owner, their.id, "viewer"))).toEqual(memberNotFound(their.id));
    expect(await failureOf(remove(ours.owner, their.id))).toEqual(memberNotFound(their.id));
    expect((await list(ours.owner)).items).toEqual([]);
    expect(await rolesOf(theirs.organization.id)).toEqual(["ann@example.com:member"]);
  });

  it("rejects a member id that is not an identifier", async () => {
    const { owner } = await auth.makeOrganization();

    expect(await failureOf(remove(owner, "NOT-A-CUID2-IDENTIFIER-X"))).toMatchObject({
      status: 400,
      code: "validation_failed",
      message:
        "Request is invalid: path.id: must be a CUID2 identifier: a lowercase letter, then lowercase letters and digits",
    });
  });

  it("rejects a cursor it did not give out, as every list does", async () => {
    const { owner } = await auth.makeOrganization();
    const reason =
      "is not a cursor this list issued; pass a page's nextCursor unchanged, or start again without a cursor";

    expect(await failureOf(list(owner, { cursor: "garbage" }))).toEqual({
      status: 400,
      code: "validation_failed",
      message: `Request is invalid: query.cursor: ${reason}`,
      details: { issues: [{ path: "query.cursor", message: reason, code: "custom" }] },
    });
  });

  it("pages through members oldest first, each exactly once", async () => {
    const { owner } = await auth.makeOrganization();
    const added: Member[] = [];
    for (let i = 0; i < 5; i++) added.push(await auth.makeMember(owner, "viewer", `m${i}@example.com`));

    const first = await list(owner, { limit: "2" });
    const second = await list(owner, { limit: "2", cursor: first.nextCursor });
    const third = await list(owner, { limit: "2", cursor: second.nextCursor });

    expect([first, second, third].map((page) => [page.items.length, page.hasMore])).toEqual([
      [2, true],
      [2, true],
      [1, false],
    ]);
    expect(third.nextCursor).toBeNull();
    // Members added in the same millisecond are listed by id.
    const inListOrder = [...added].sort(
      (a, b) => a.createdAt.localeCompare(b.createdAt) || (a.id < b.id ? -1 : 1),
    );
    expect([...first.items, ...second.items, ...third.items]).toEqual(inListOrder);
  });
});
