import { randomBytes } from "node:crypto";
import { realInfra } from "@svc/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client } from "../http";
import { codesIn, recipientOf, startMailbox } from "../mailbox";
import { startDistributed, startEmbedded, type Target } from "../targets";

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Signs in with a code as a browser would: the cookie and the session's answer. */
async function signIn(baseUrl: string, signInCode: string) {
  const response = await fetch(`${baseUrl}/v1/sessions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ signInCode }),
  });
  const cookie = (response.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
  return { status: response.status, body: (await response.json()) as Record<string, unknown>, cookie };
}

const mailbox = { port: 0, messages: [] as string[], close: async () => undefined };

const modes: [string, (env: Record<string, string>) => Promise<Target>][] = [
  ["embedded", (env) => startEmbedded(env)],
  ...(realInfra()
    ? ([
        ["distributed", (env) => startDistributed({ env: { ...env, SVC_PUBLIC_URL: "http://svc.invalid" } })],
      ] as [string, (env: Record<string, string>) => Promise<Target>][])
    : []),
];

beforeAll(async () => Object.assign(mailbox, await startMailbox()));
afterAll(() => mailbox.close());

describe.each(modes)("people, invitations and sign-in links by e-mail (%s)", (_name, start) => {
  let target: Target;
  beforeAll(async () => {
    target = await start({
      SVC_SMTP_URL: `smtp://127.0.0.1:${mailbox.port}`,
      SVC_RATE_LIMIT_EMAIL_PER_HOUR: "3",
      SVC_RATE_LIMIT_EMAIL_CLIENT_PER_HOUR: "1000",
    });
  }, 180_000);
  afterAll(() => target?.stop());

  const mailTo = async (email: string) => {
    await expect
      .poll(() => mailbox.messages.filter((m) => recipientOf(m) === email).length, { timeout: 10_000 })
      .toBeGreaterThan(0);
    return mailbox.messages.filter((m) => recipientOf(m) === email);
  };

  it("mails an invitation through SMTP whose link signs the person in, as themselves, once", async () => {
    const owner = client(target.baseUrl, target.ownerKey);
    const email = `ann-${randomBytes(3).toString("hex")}@example.com`;

    const invited = await owner.post<{ id: string; userId: string }>("/v1/members", {
      email,
      role: "member",
    });
    expect(invited.status).toBe(201);
    expect(invited.body).toMatchObject({
      email,
      name: email,
      role: "member",
      status: "invited",
      inviteUrl: null,
    });

    const [mail] = await mailTo(email);
    const [code] = codesIn(mail ?? "");
    const session = await signIn(target.baseUrl, code ?? "");
    expect(session.status).toBe(201);
    expect(session.body).toMatchObject({
      role: "member",
      user: { id: invited.body.userId, email, name: email },
    });
    expect((await signIn(target.baseUrl, code ?? "")).status).toBe(401);

    const members = await owner.get<{ items: { id: string; status: string }[] }>("/v1/members");
    expect(members.body.items.find((m) => m.id === invited.body.id)?.status).toBe("active");
    expect((await owner.post("/v1/members", { email, role: "viewer" })).status).toBe(409);

    // Removed, the person's session ends at once.
    expect((await owner.delete(`/v1/members/${invited.body.id}`)).status).toBe(204);
    await expect
      .poll(
        async () =>
          (await fetch(`${target.baseUrl}/v1/session`, { headers: { cookie: session.cookie } })).status,
        {
          timeout: 1_500,
        },
      )
      .toBe(401);
  });

  it("answers 202 to any address, mails only a member, and stops mailing past the limit with 429", async () => {
    const owner = client(target.baseUrl, target.ownerKey);
    const anonymous = client(target.baseUrl, "");
    const email = `bo-${randomBytes(3).toString("hex")}@example.com`;
    await owner.post("/v1/members", { email, role: "viewer" });
    await mailTo(email);
    const before = mailbox.messages.length;

    const unknown = await anonymous.post("/v1/session/email", {
      email: `nobody-${randomBytes(3).toString("hex")}@example.com`,
    });
    const known = await anonymous.post("/v1/session/email", { email });
    expect(unknown.status).toBe(202);
    expect(known.status).toBe(202);
    expect(unknown.body).toEqual(known.body);
    await expect.poll(() => mailbox.messages.length, { timeout: 10_000 }).toBe(before + 1);
    const code = codesIn(mailbox.messages.at(-1) ?? "")[0] ?? "";
    expect((await signIn(target.baseUrl, code)).body).toMatchObject({ role: "viewer", user: { email } });

    await anonymous.post("/v1/session/email", { email });
    await anonymous.post("/v1/session/email", { email });
    const flooded = await anonymous.post<{ code: string }>("/v1/session/email", { email });
    expect(flooded.status).toBe(429);
    expect(flooded.body.code).toBe("rate_limited");
    expect(Number(flooded.headers.get("retry-after"))).toBeGreaterThan(0);
    await pause(1_000);
    expect(mailbox.messages.filter((m) => recipientOf(m) === email)).toHaveLength(4);
  });

  it("refuses malformed and header-injecting addresses, and invitations by members and viewers", async () => {
    const owner = client(target.baseUrl, target.ownerKey);
    const anonymous = client(target.baseUrl, "");
    for (const email of ["ann", "ann@example.com\r\nBcc: eve@example.com", "ann@example.com\nX: y"]) {
      expect((await owner.post("/v1/members", { email, role: "member" })).status).toBe(400);
      expect((await anonymous.post("/v1/session/email", { email })).status).toBe(400);
    }
    for (const role of ["member", "viewer"]) {
      const key = await owner.post<{ token: string }>("/v1/api-keys", { name: role, role });
      const holder = client(target.baseUrl, key.body.token);
      const refused = await holder.post("/v1/members", { email: `x-${role}@example.com`, role: "viewer" });
      expect(refused.status).toBe(403);
    }
    expect((await signIn(target.baseUrl, `svc_sc_${randomBytes(32).toString("base64url")}`)).status).toBe(
      401,
    );
  });

  it("tells a key who is behind it: the start-up owner, or no one for a key the operator made", async () => {
    const account = await client(target.baseUrl, target.ownerKey).get<{ user: unknown }>("/v1/account");
    // The embedded platform's first start makes its owner a person; the distributed harness signs its
    // organisation up through the operator route, whose key is made by no person.
    expect(account.body.user).toEqual(
      target.name === "embedded" ? { id: expect.any(String), email: null, name: "Owner" } : null,
    );
  });
});
