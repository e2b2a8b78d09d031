import { callOperation } from "@svc/bus";
import {
  type CredentialRevokedEvent,
  createdSessionSchema,
  credentialRevokedEventSchema,
  operations,
  type RequestContext,
  type Role,
  subjects,
  verifiedEmailSignInSchema,
} from "@svc/contracts";
import { availableBackends } from "@svc/testing";
import { describe, expect, it } from "vitest";
import type { MailMessage } from "../mail/mailer";
import { authSuite, contextFor, failureOf, raw, uniqueSuffix } from "../test-support";

/** Every message the platform sent, as an SMTP server would receive it. */
const outbox: MailMessage[] = [];
const recordingMailer = { send: async (message: MailMessage) => void outbox.push(message) };
const linkIn = (text: string): string => {
  const code = /\/sign-in#code=(svc_sc_[A-Za-z0-9_-]+)/.exec(text)?.[1];
  if (!code) throw new Error(`no sign-in link in: ${text}`);
  return code;
};
const codeOf = (inviteUrl: string | null): string => linkIn(inviteUrl ?? "");

describe.each(availableBackends())("people (%s)", (backendName) => {
  const auth = authSuite(backendName);
  const mailing = authSuite(backendName, {
    mailer: recordingMailer,
    publicUrl: () => "https://svc.example.com",
  });

  const signIn = async (suite: typeof auth, signInCode: string) =>
    createdSessionSchema.parse(await suite.ask(subjects.sessions.create, { signInCode }));
  const invite = (suite: typeof auth, by: RequestContext, email: string, role: Role = "member") =>
    callOperation(suite.bus, operations.addMember, by, raw({ body: { email, role } }));
  const account = (suite: typeof auth, context: RequestContext) =>
    callOperation(suite.bus, operations.getAccount, context, raw());
  const revocations = (suite: typeof auth) => {
    const events: CredentialRevokedEvent[] = [];
    const subscription = suite.bus.subscribe(subjects.auth.credentialRevoked, (payload) => {
      events.push(credentialRevokedEventSchema.parse(payload));
    });
    return { events, stop: () => subscription.unsubscribe() };
  };

  it("invites a person whose link signs them in once, as themselves, with the member's role", async () => {
    const { organization, owner } = await auth.makeOrganization();
    const email = `ann-${uniqueSuffix()}@example.com`;

    const invited = await invite(auth, owner, email, "member");
    expect(invited).toMatchObject({ email, name: email, role: "member", status: "invited" });
    expect(invited.inviteUrl).toMatch(/^\/sign-in#code=svc_sc_[A-Za-z0-9_-]{43}$/);

    const session = await signIn(auth, codeOf(invited.inviteUrl));
    const ann = await contextFor(auth.bus, session.token);
    expect(ann).toMatchObject({
      organizationId: organization.id,
      role: "member",
      actor: { kind: "user", id: invited.userId },
      sessionId: session.sessionId,
    });
    expect(await account(auth, ann)).toEqual({
      organization: expect.objectContaining({ id: organization.id }),
      role: "member",
      user: { id: invited.userId, email, name: email },
    });
    const listed = await callOperation(auth.bus, operations.listMembers, owner, raw({ query: {} }));
    expect(listed.items).toEqual([expect.objectContaining({ id: invited.id, status: "active" })]);
    expect(await failureOf(signIn(auth, codeOf(invited.inviteUrl)))).toMatchObject({
      status: 401,
      details: { reason: "used" },
    });
  });

  it("lets only owners and admins invite", async () => {
    const { owner } = await auth.makeOrganization();
    for (const role of ["member", "viewer"] as const) {
      const key = await auth.makeKey(owner, role);
      expect(await failureOf(invite(auth, key.context, `x-${uniqueSuffix()}@example.com`))).toMatchObject({
        status: 403,
        code: "forbidden",
      });
    }
  });

  it("mails the invitation through the mailer, with a link at the platform's own address, and answers no link", async () => {
    const { owner } = await mailing.makeOrganization("Acme");
    const email = `bo-${uniqueSuffix()}@example.com`;

    const invited = await invite(mailing, owner, email);

    expect(invited.inviteUrl).toBeNull();
    const mail = outbox.find((message) => message.to === email);
    expect(mail?.subject).toBe("You are invited to Acme on svc");
    expect(mail?.text).toContain("https://svc.example.com/sign-in#code=svc_sc_");
    const session = await signIn(mailing, linkIn(mail?.text ?? ""));
    expect((await contextFor(mailing.bus, session.token)).actor).toEqual({
      kind: "user",
      id: invited.userId,
    });
  });

  it("mails one named link per organisation to a member's address, none to an unknown one, each bound to the address", async () => {
    const email = `cy-${uniqueSuffix()}@example.com`;
    const first = await mailing.makeOrganization(`First ${uniqueSuffix()}`);
    const second = await mailing.makeOrganization(`Second ${uniqueSuffix()}`);
    await invite(mailing, first.owner, email, "admin");
    await invite(mailing, second.owner, email, "viewer");
    outbox.length = 0;

    await mailing.ask(subjects.sessions.emailSignInLink, { email: `nobody-${uniqueSuffix()}@example.com` });
    await mailing.ask(subjects.sessions.emailSignInLink, { email: email.toUpperCase() });
    await expect.poll(() => outbox.length).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(outbox.map((message) => message.to)).toEqual([email]);

    const text = outbox[0]?.text ?? "";
    expect(text).toContain(`${first.organization.name}:\nhttps://svc.example.com/sign-in#code=`);
    expect(text).toContain(`${second.organization.name}:\nhttps://svc.example.com/sign-in#code=`);
    const secondCode = linkIn(text.slice(text.indexOf(second.organization.name)));
    const session = await signIn(mailing, secondCode);
    expect(await contextFor(mailing.bus, session.token)).toMatchObject({
      organizationId: second.organization.id,
      role: "viewer",
    });

    // A link mailed to an address stops working once the address is no longer the person's.
    const firstCode = linkIn(text.slice(text.indexOf(first.organization.name)));
    const person = await contextFor(mailing.bus, session.token);
    await callOperation(
      mailing.bus,
      operations.updateAccountUser,
      person,
      raw({ body: { email: `new-${email}` } }),
    );
    expect(await failureOf(signIn(mailing, firstCode))).toMatchObject({
      status: 401,
      details: { reason: "revoked" },
    });
  });

  it("signs a verified address in: a session for one organisation, a code per organisation for several, nothing for a stranger", async () => {
    const email = `sso-${uniqueSuffix()}@example.com`;
    const first = await auth.makeOrganization(`First ${uniqueSuffix()}`);
    const invited = await invite(auth, first.owner, email, "admin");
    const verified = async (address: string) =>
      verifiedEmailSignInSchema.parse(await auth.ask(subjects.sessions.verifiedEmail, { email: address }));

    const one = await verified(email.toUpperCase());
    if (!("session" in one)) throw new Error("expected a session");
    expect(await contextFor(auth.bus, one.session.token)).toMatchObject({
      organizationId: first.organization.id,
      role: "admin",
      actor: { kind: "user", id: invited.userId },
    });
    const members = await callOperation(auth.bus, operations.listMembers, first.owner, raw());
    expect(members.items.find((member) => member.email === email)?.status).toBe("active");

    const second = await auth.makeOrganization(`Second ${uniqueSuffix()}`);
    await invite(auth, second.owner, email, "viewer");
    const several = await verified(email);
    if (!("choices" in several)) throw new Error("expected choices");
    expect(several.choices.map((choice) => choice.organizationName)).toEqual([
      first.organization.name,
      second.organization.name,
    ]);
    const chosen = await signIn(auth, several.choices[1]?.signInCode ?? "");
    expect(await contextFor(auth.bus, chosen.token)).toMatchObject({
      organizationId: second.organization.id,
      role: "viewer",
    });

    expect(
      await failureOf(
        auth.ask(subjects.sessions.verifiedEmail, { email: `no-${uniqueSuffix()}@example.com` }),
      ),
    ).toMatchObject({ status: 401, details: { reason: "not_a_member" } });
  });

  it("says a platform without mail cannot e-mail links, whatever the address", async () => {
    expect(
      await failureOf(auth.ask(subjects.sessions.emailSignInLink, { email: "a@example.com" })),
    ).toMatchObject({
      status: 404,
    });
  });

  it("ends a removed member's sessions at once and tells every gateway", async () => {
    const { owner } = await auth.makeOrganization();
    const invited = await invite(auth, owner, `di-${uniqueSuffix()}@example.com`);
    const session = await signIn(auth, codeOf(invited.inviteUrl));
    const heard = revocations(auth);
    try {
      await callOperation(auth.bus, operations.removeMember, owner, raw({ params: { id: invited.id } }));
      await expect.poll(() => heard.events).toEqual([{ actor: { kind: "session", id: session.sessionId } }]);
    } finally {
      heard.stop();
    }
    expect(await failureOf(auth.verify(session.token))).toMatchObject({ status: 401 });
  });

  it("lets a member leave, ending their sessions, but not the last owner", async () => {
    const { owner } = await auth.makeOrganization();
    const admin = await invite(auth, owner, `ed-${uniqueSuffix()}@example.com`, "owner");
    const session = await signIn(auth, codeOf(admin.inviteUrl));
    const person = await contextFor(auth.bus, session.token);

    expect(
      await failureOf(callOperation(auth.bus, operations.leaveOrganization, person, raw())),
    ).toMatchObject({ status: 409, code: "conflict" });
    const second = await invite(auth, owner, `fa-${uniqueSuffix()}@example.com`, "owner");
    await signIn(auth, codeOf(second.inviteUrl));

    expect(await callOperation(auth.bus, operations.leaveOrganization, person, raw())).toBeNull();
    expect(await failureOf(auth.verify(session.token))).toMatchObject({ status: 401 });
    // A key made by no person has no membership to leave.
    expect(
      await failureOf(callOperation(auth.bus, operations.leaveOrganization, owner, raw())),
    ).toMatchObject({
      status: 403,
    });
  });

  it("lets a person rename themselves, records them as the maker of their keys, and refuses it to keys and to line breaks", async () => {
    const { owner } = await auth.makeOrganization();
    const invited = await invite(auth, owner, `gi-${uniqueSuffix()}@example.com`, "admin");
    const person = await contextFor(auth.bus, (await signIn(auth, codeOf(invited.inviteUrl))).token);

    const renamed = await callOperation(
      auth.bus,
      operations.updateAccountUser,
      person,
      raw({ body: { name: " Gil Ho " } }),
    );
    expect(renamed).toEqual({ id: invited.userId, email: invited.email, name: "Gil Ho" });
    const key = await callOperation(
      auth.bus,
      operations.createApiKey,
      person,
      raw({ body: { name: "ci", role: "member" } }),
    );
    expect(key.createdBy).toEqual({ id: invited.userId, name: "Gil Ho" });
    const keyContext = await contextFor(auth.bus, key.token ?? "");
    expect((await account(auth, keyContext)).user).toEqual(renamed);

    for (const name of ["Gil\r\nBcc: x@example.com", "Gil\nHo", "Gil\u0000"]) {
      expect(
        await failureOf(
          callOperation(auth.bus, operations.updateAccountUser, person, raw({ body: { name } })),
        ),
      ).toMatchObject({ status: 400, code: "validation_failed" });
    }
    expect(
      await failureOf(
        callOperation(
          auth.bus,
          operations.updateAccountUser,
          person,
          raw({ body: { email: "a@b.c\r\nBcc: x@y.z" } }),
        ),
      ),
    ).toMatchObject({ status: 400, code: "validation_failed" });
    expect(
      await failureOf(
        callOperation(auth.bus, operations.updateAccountUser, owner, raw({ body: { name: "Key" } })),
      ),
    ).toMatchObject({ status: 403 });
  });
});
