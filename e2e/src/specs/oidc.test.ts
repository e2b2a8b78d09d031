import { randomBytes } from "node:crypto";
import { realInfra } from "@svc/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CookieBrowser } from "../cookie-browser";
import { kill, scratchDirsForSuite, spawnEmbedded } from "../embedded";
import { client } from "../http";
import { codesIn, type Mailbox, recipientOf, startMailbox } from "../mailbox";
import { type OpenIdProvider, openIdProvider, signingKey } from "../openid-provider";
import { freePort } from "../platform";
import { startDistributed, startEmbedded, type Target } from "../targets";

const CALLBACK_PATH = "/v1/session/oidc/callback";
/** The distributed platform's configured address: links and the redirect URI use it, not the test's. */
const DISTRIBUTED_PUBLIC_URL = "http://svc.invalid";

const modes: [string, (env: Record<string, string>) => Promise<Target>][] = [
  ["embedded", (env) => startEmbedded(env)],
  ...(realInfra()
    ? ([
        [
          "distributed",
          (env) => startDistributed({ env: { ...env, SVC_PUBLIC_URL: DISTRIBUTED_PUBLIC_URL } }),
        ],
      ] as [string, (env: Record<string, string>) => Promise<Target>][])
    : []),
];

const unique = (name: string) => `${name}-${randomBytes(3).toString("hex")}@example.com`;

describe("single sign-on's configuration", () => {
  const dataFolder = scratchDirsForSuite();
  it.each([
    [
      "a malformed issuer",
      {
        SVC_OIDC_ISSUER: "login.example.com",
        SVC_OIDC_CLIENT_ID: "svc",
        SVC_OIDC_CLIENT_SECRET: "s3cret-value",
      },
      "svc: Invalid configuration:\n  SVC_OIDC_ISSUER: must be the identity provider's issuer URL, such as https://login.example.com\n",
    ],
    [
      "an issuer without its client",
      { SVC_OIDC_ISSUER: "https://login.example.com" },
      "  SVC_OIDC_CLIENT_ID: must be set with SVC_OIDC_ISSUER",
    ],
  ])(
    "ends the platform at start on %s, naming the variable and never the secret",
    async (_what, env, message) => {
      const proc = spawnEmbedded({
        SVC_DATA_DIR: dataFolder("oidc-config"),
        PORT: String(await freePort()),
        ...env,
      });
      try {
        expect(await proc.exited).toBe(1);
        expect(proc.stderr.join("")).toContain(message);
        expect(proc.output()).not.toContain("s3cret-value");
      } finally {
        await kill(proc);
      }
    },
  );
});

let mailbox: Mailbox;
beforeAll(async () => {
  mailbox = await startMailbox();
});
afterAll(() => mailbox?.close());

describe.each(modes)("single sign-on with a real OpenID provider (%s)", (_name, start) => {
  let target: Target;
  let provider: OpenIdProvider;

  beforeAll(async () => {
    // The provider is down when the platform starts: it must start all the same.
    provider = openIdProvider(await freePort());
    target = await start({
      SVC_SMTP_URL: `smtp://127.0.0.1:${mailbox.port}`,
      SVC_OIDC_ISSUER: provider.issuer,
      SVC_OIDC_CLIENT_ID: provider.clientId,
      SVC_OIDC_CLIENT_SECRET: provider.clientSecret,
      SVC_OIDC_NAME: "Example Login",
    });
    provider.redirectUris.push(
      `${target.baseUrl}${CALLBACK_PATH}`,
      `${DISTRIBUTED_PUBLIC_URL}${CALLBACK_PATH}`,
    );
  }, 180_000);
  afterAll(async () => {
    await provider?.stop();
    await target?.stop();
  });

  const owner = () => client(target.baseUrl, target.ownerKey);
  const platformHost = () => new URL(target.baseUrl).host;

  /** Asks the platform to start a sign-in: where it sends the browser (the provider, or back to sign-in). */
  async function startSignIn(browser: CookieBrowser, query = ""): Promise<URL> {
    const started = await browser.get(`${target.baseUrl}/v1/session/oidc${query}`);
    expect(started.status).toBe(302);
    return started.location as URL;
  }

  /** Signs `accountId` in at the provider (its login and consent forms) and returns the callback it sends back. */
  async function authorizeAtProvider(browser: CookieBrowser, authorization: URL, accountId: string) {
    let visit = await browser.get(authorization);
    let at = authorization;
    for (let step = 0; step < 12; step++) {
      if (visit.location?.pathname === CALLBACK_PATH) {
        // As the browser would reach the platform at its configured address, which is this test's.
        const callback = new URL(`${visit.location.pathname}${visit.location.search}`, target.baseUrl);
        secretsSeen.push(
          callback.searchParams.get("code") ?? "no code",
          browser.cookie(platformHost(), "svc_oidc") ?? "",
        );
        return callback;
      }
      if (visit.location) {
        at = visit.location;
        visit = await browser.get(at);
        continue;
      }
      const prompt = /name="prompt" value="(\w+)"/.exec(visit.body)?.[1];
      if (visit.status !== 200 || !prompt)
        throw new Error(`the provider answered ${visit.status}: ${visit.body}`);
      visit = await browser.postForm(at, { prompt, login: accountId, password: "any" });
    }
    throw new Error("the provider never sent the browser back");
  }

  /** Every code and session token the tests saw: none may appear in any process's log. */
  const secretsSeen: string[] = [];

  /** A whole sign-in in a new browser: the platform's last answer and the browser. */
  async function signInAs(accountId: string) {
    const browser = new CookieBrowser();
    const callback = await authorizeAtProvider(browser, await startSignIn(browser), accountId);
    const landed = await browser.get(callback);
    const session = sessionCookieOf(browser);
    if (session) secretsSeen.push(session);
    return { browser, callback, landed };
  }

  const sessionCookieOf = (browser: CookieBrowser) => browser.cookie(platformHost(), "svc_session");
  const accountWith = (browser: CookieBrowser) =>
    fetch(`${target.baseUrl}/v1/account`, {
      headers: { cookie: `svc_session=${sessionCookieOf(browser) ?? ""}` },
    }).then(async (response) => ({ status: response.status, body: await response.json() }));

  const inviteWithAccount = async (accountId: string, verified = true) => {
    const email = unique(accountId);
    const invited = await owner().post<{ id: string; userId: string }>("/v1/members", {
      email,
      role: "member",
    });
    expect(invited.status).toBe(201);
    provider.accounts.set(accountId, {
      email,
      email_verified: verified,
      name: `${accountId} at the provider`,
    });
    return { email, ...invited.body };
  };

  const failedWith = (landed: { status: number; location: URL | undefined }, code: string) => {
    expect(landed.status).toBe(302);
    expect(`${landed.location?.pathname}${landed.location?.search}`).toBe(`/sign-in?error=${code}`);
  };

  it("starts while the provider is down, says so on the sign-in page, and lets keys sign in meanwhile", async () => {
    const page = await (await fetch(`${target.baseUrl}/sign-in`)).text();
    expect(page).toContain('<meta name="svc-single-sign-on" content="Example Login" />');

    failedWith({ status: 302, location: await startSignIn(new CookieBrowser()) }, "oidc_unavailable");
    const withKey = await fetch(`${target.baseUrl}/v1/sessions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ apiKey: target.ownerKey }),
    });
    expect(withKey.status).toBe(201);

    // Once the provider answers, single sign-on works without a restart.
    await provider.start(signingKey("first"));
    expect((await startSignIn(new CookieBrowser())).origin).toBe(provider.issuer);
  });

  it("signs an invited member in as themselves, with the provider's verified address", async () => {
    const ann = await inviteWithAccount("ann");

    const { browser, landed } = await signInAs("ann");

    expect(landed.status).toBe(302);
    expect(landed.location?.pathname).toBe("/projects");
    expect(sessionCookieOf(browser)).toMatch(/^svc_ss_/);
    expect(browser.cookie(platformHost(), "svc_oidc")).toBeUndefined();
    const account = await accountWith(browser);
    expect(account.status).toBe(200);
    expect(account.body).toMatchObject({
      role: "member",
      user: { id: ann.userId, email: ann.email, name: ann.email },
    });
    const members = await owner().get<{ items: { id: string; status: string }[] }>("/v1/members");
    expect(members.body.items.find((member) => member.id === ann.id)?.status).toBe("active");
  });

  it("opens the page the sign-in page asked for, and never another site", async () => {
    await inviteWithAccount("bo");
    const landingAfter = async (query: string) => {
      const browser = new CookieBrowser();
      const callback = await authorizeAtProvider(browser, await startSignIn(browser, query), "bo");
      const landed = await browser.get(callback);
      expect(landed.status).toBe(302);
      return landed.location?.href.slice(target.baseUrl.length);
    };

    expect(await landingAfter("?next=%2Fprojects%2Fp%2Fdatasets%2Fd%3Frow%3Dr1")).toBe(
      "/projects/p/datasets/d?row=r1",
    );
    for (const elsewhere of ["https://evil.example/", "//evil.example/", "/\\evil.example/"]) {
      expect(await landingAfter(`?next=${encodeURIComponent(elsewhere)}`)).toBe("/projects");
    }
  });

  it("refuses a callback whose state is not the one this browser started last", async () => {
    await inviteWithAccount("cy");
    const browser = new CookieBrowser();
    const first = await startSignIn(browser);
    await startSignIn(browser); // a second attempt in another tab replaces the first
    const callback = await authorizeAtProvider(browser, first, "cy");

    const landed = await browser.get(callback);

    failedWith(landed, "oidc_state");
    expect(sessionCookieOf(browser)).toBeUndefined();
  });

  it("refuses a replayed code, whether the browser reloads the callback or someone sends it again with the attempt", async () => {
    await inviteWithAccount("di");
    const browser = new CookieBrowser();
    const callback = await authorizeAtProvider(browser, await startSignIn(browser), "di");
    const attempt = browser.cookie(platformHost(), "svc_oidc") ?? "";
    expect((await browser.get(callback)).location?.pathname).toBe("/projects");

    failedWith(await browser.get(callback), "oidc_expired");
    const replayer = new CookieBrowser();
    replayer.setCookie(platformHost(), "svc_oidc", attempt);
    failedWith(await replayer.get(callback), "oidc_code_used");
    expect(sessionCookieOf(replayer)).toBeUndefined();
  });

  it("refuses an ID token whose nonce is not the attempt's", async () => {
    await inviteWithAccount("ed");
    const browser = new CookieBrowser();
    const callback = await authorizeAtProvider(browser, await startSignIn(browser), "ed");
    // The attempt's cookie holds state.nonce.verifier.next: only the nonce is another one.
    const [state, , ...rest] = (browser.cookie(platformHost(), "svc_oidc") ?? "").split(".");
    const otherNonce = randomBytes(32).toString("base64url");
    browser.setCookie(platformHost(), "svc_oidc", [state, otherNonce, ...rest].join("."));

    failedWith(await browser.get(callback), "oidc_nonce");
    expect(sessionCookieOf(browser)).toBeUndefined();
  });

  it("refuses an address the provider has not verified, and leaves the invitation as it was", async () => {
    const fa = await inviteWithAccount("fa", false);

    const { browser, landed } = await signInAs("fa");

    failedWith(landed, "oidc_unverified_email");
    expect(sessionCookieOf(browser)).toBeUndefined();
    const members = await owner().get<{ items: { id: string; status: string }[] }>("/v1/members");
    expect(members.body.items.find((member) => member.id === fa.id)?.status).toBe("invited");
  });

  it("refuses a verified address that no organisation invited", async () => {
    provider.accounts.set("gu", { email: unique("gu"), email_verified: true, name: "Gu" });

    const { browser, landed } = await signInAs("gu");

    failedWith(landed, "oidc_not_a_member");
    expect(sessionCookieOf(browser)).toBeUndefined();
  });

  it("lets a member of several organisations choose one, as a mailed link does", async () => {
    const ha = await inviteWithAccount("ha");
    const other = client(target.baseUrl, await target.newOrganizationKey());
    expect((await other.post("/v1/members", { email: ha.email, role: "viewer" })).status).toBe(201);

    const { browser, landed } = await signInAs("ha");

    expect(landed.status).toBe(302);
    expect(landed.location?.pathname).toBe("/sign-in");
    expect(sessionCookieOf(browser)).toBeUndefined();
    const encoded = new URLSearchParams(landed.location?.hash.slice(1)).get("organizations") ?? "";
    const choices = JSON.parse(Buffer.from(encoded, "base64url").toString("utf8")) as {
      organizationName: string;
      signInCode: string;
    }[];
    expect(choices).toHaveLength(2);
    const roles = [];
    for (const choice of choices) {
      const session = await fetch(`${target.baseUrl}/v1/sessions`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ signInCode: choice.signInCode }),
      });
      expect(session.status).toBe(201);
      const body = (await session.json()) as {
        role: string;
        organization: { name: string };
        user: { email: string };
      };
      expect(body.organization.name).toBe(choice.organizationName);
      expect(body.user.email).toBe(ha.email);
      roles.push(body.role);
    }
    expect(roles.sort()).toEqual(["member", "viewer"]);
  });

  it("signs in after the provider rotates its signing key", async () => {
    await inviteWithAccount("io");
    expect((await signInAs("io")).landed.location?.pathname).toBe("/projects");

    await provider.stop();
    await provider.start(signingKey("second"));
    const keys = await new CookieBrowser().get(`${provider.issuer}/jwks`);
    expect((JSON.parse(keys.body) as { keys: { kid: string }[] }).keys.map((key) => key.kid)).toEqual([
      "second",
    ]);

    const { browser, landed } = await signInAs("io");
    expect(landed.location?.pathname).toBe("/projects");
    expect((await accountWith(browser)).status).toBe(200);
  });

  it("says the provider is down when it stops, and every other way in keeps working", async () => {
    const jo = await inviteWithAccount("jo");
    const browser = new CookieBrowser();
    const callback = await authorizeAtProvider(browser, await startSignIn(browser), "jo");
    await provider.stop();

    failedWith(await browser.get(callback), "oidc_unavailable");
    failedWith({ status: 302, location: await startSignIn(new CookieBrowser()) }, "oidc_unavailable");

    expect((await owner().get("/v1/projects")).status).toBe(200);
    const before = mailbox.messages.length;
    const asked = await client(target.baseUrl, "").post("/v1/session/email", { email: jo.email });
    expect(asked.status).toBe(202);
    await expect
      .poll(() => mailbox.messages.slice(before).filter((m) => recipientOf(m) === jo.email).length, {
        timeout: 10_000,
      })
      .toBe(1);
    const mail = mailbox.messages.slice(before).find((m) => recipientOf(m) === jo.email) ?? "";
    const [code] = codesIn(mail);
    const session = await fetch(`${target.baseUrl}/v1/sessions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ signInCode: code }),
    });
    expect(session.status).toBe(201);
    expect(await session.json()).toMatchObject({ user: { id: jo.userId, email: jo.email } });
  });

  it("writes no client secret, authorization code, attempt or session token to any log", () => {
    const logs = target.processes.flatMap((process) => process.transcript).join("");
    expect(secretsSeen.length).toBeGreaterThan(10);
    expect(logs).toContain("single sign-on did not sign the person in");
    for (const secret of [provider.clientSecret, ...secretsSeen.filter((value) => value.length > 0)]) {
      expect(logs).not.toContain(secret);
    }
  });
});
