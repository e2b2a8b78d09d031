import type { InjectOptions } from "fastify";
import { afterEach, describe, expect, it } from "vitest";
import { csrfTokenOf } from "./auth";
import { type FakePlatform, fakePlatform } from "./testing/fake-platform";

let platform: FakePlatform | undefined;
afterEach(async () => {
  await platform?.close();
  platform = undefined;
});

async function start(env: Record<string, string> = {}): Promise<FakePlatform> {
  platform = await fakePlatform(env);
  return platform;
}

const ORIGIN = "http://localhost";

/** Signs in with a key and answers the cookie pair (`name=value`), the Set-Cookie header and the body. */
async function signIn(p: FakePlatform, apiKey: string, headers: Record<string, string> = {}) {
  const response = await p.gateway.app.inject({
    method: "POST",
    url: "/v1/sessions",
    headers: { "content-type": "application/json", ...headers },
    payload: { apiKey },
  });
  expect(response.statusCode).toBe(201);
  const setCookie = String(response.headers["set-cookie"]);
  return { cookie: setCookie.split(";")[0] ?? "", setCookie, body: response.json() };
}

const traces = (headers: Record<string, string>) => ({
  method: "POST" as const,
  url: "/v1/traces",
  headers: { "content-type": "application/json", "x-svc-project": "demo", ...headers },
  payload: '{"resourceSpans":[]}',
});

describe("signing in", () => {
  it("exchanges an API key for an HttpOnly session cookie and answers who the person is", async () => {
    const p = await start();
    const key = p.key("member");

    const { cookie, setCookie, body } = await signIn(p, key);

    expect(setCookie).toMatch(
      /^svc_session=svc_ss_[A-Za-z0-9_-]{43}; Max-Age=(3599|3600); Path=\/; HttpOnly; SameSite=Lax$/,
    );
    const token = cookie.slice("svc_session=".length);
    expect(body).toEqual({
      organization: { id: "org_a", name: "org_a", slug: "org_a" },
      role: "member",
      user: null,
      csrfToken: csrfTokenOf(token),
      expiresAt: expect.any(String),
      sessionId: expect.stringMatching(/^session_/),
    });
    // Neither the key nor the session token reaches the page's JavaScript.
    expect(JSON.stringify(body)).not.toContain(key);
    expect(JSON.stringify(body)).not.toContain(token);
  });

  it("uses a Secure __Host- cookie behind HTTPS", async () => {
    const p = await start({ SVC_PUBLIC_URL: "https://svc.example.com" });
    const { setCookie } = await signIn(p, p.key());
    expect(setCookie).toMatch(
      /^__Host-svc_session=svc_ss_[^;]+; Max-Age=\d+; Path=\/; HttpOnly; Secure; SameSite=Lax$/,
    );
  });

  it("refuses an unknown key with 401 and a body that is neither key nor code with 400", async () => {
    const p = await start();
    const unknown = await p.gateway.app.inject({
      method: "POST",
      url: "/v1/sessions",
      payload: { apiKey: "svc_nope" },
    });
    expect(unknown.statusCode).toBe(401);
    expect(unknown.headers["set-cookie"]).toBeUndefined();
    expect(unknown.json()).toMatchObject({ code: "unauthenticated" });

    const empty = await p.gateway.app.inject({ method: "POST", url: "/v1/sessions", payload: {} });
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toMatchObject({
      code: "validation_failed",
      error:
        'Send {"apiKey": "svc_…"} (an API key of your organisation) or {"signInCode": "…"} (from a sign-in link)',
    });
  });

  it("refuses a sign-in posted from another site (login CSRF), but not one without an Origin", async () => {
    const p = await start();
    const key = p.key();
    const forged = await p.gateway.app.inject({
      method: "POST",
      url: "/v1/sessions",
      headers: { origin: "https://evil.example" },
      payload: { apiKey: key },
    });
    expect(forged.statusCode).toBe(403);
    expect(forged.headers["set-cookie"]).toBeUndefined();
    expect(forged.json()).toMatchObject({
      code: "forbidden",
      error:
        "This request came from https://evil.example, not from http://localhost; a session works only from its own site",
    });
    await signIn(p, key, { origin: ORIGIN });
    await signIn(p, key);
  });

  it("answers the session again on reload, and 401 without a cookie", async () => {
    const p = await start();
    const { cookie, body } = await signIn(p, p.key("admin"));

    const again = await p.gateway.app.inject({ method: "GET", url: "/v1/session", headers: { cookie } });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(body);
    expect(again.headers["cache-control"]).toBe("no-store");

    const none = await p.gateway.app.inject({ method: "GET", url: "/v1/session" });
    expect(none.statusCode).toBe(401);
    expect(none.json()).toMatchObject({ error: "You are not signed in; sign in with an API key" });
  });
});

describe("requests made with the session cookie", () => {
  it("read with the session's organisation, role and actor", async () => {
    const p = await start();
    const { cookie } = await signIn(p, p.key("viewer"));

    const account = await p.gateway.app.inject({ method: "GET", url: "/v1/account", headers: { cookie } });

    expect(account.statusCode).toBe(200);
    expect(account.json()).toMatchObject({ role: "viewer" });
    expect(p.calls.at(-1)?.context).toMatchObject({
      organizationId: "org_a",
      role: "viewer",
      actor: { kind: "session", id: expect.stringMatching(/^session_/) },
    });
  });

  it("write with the CSRF token and this site's Origin", async () => {
    const p = await start();
    const { cookie, body } = await signIn(p, p.key("member"));

    const response = await p.gateway.app.inject(
      traces({ cookie, origin: ORIGIN, "x-csrf-token": body.csrfToken }),
    );

    expect(response.statusCode).toBe(200);
    expect(p.calls.at(-1)).toMatchObject({
      operationId: "ingestTraces",
      context: { actor: { kind: "session" } },
    });
  });

  it.each([
    ["without the CSRF token", { origin: ORIGIN }, "csrf"],
    [
      "with another session's CSRF token",
      { origin: ORIGIN, "x-csrf-token": csrfTokenOf("svc_ss_other") },
      "csrf",
    ],
    ["without an Origin", { "x-csrf-token": "set below" }, "origin"],
    ["from another site", { origin: "https://evil.example", "x-csrf-token": "set below" }, "origin"],
    [
      "from the same host on another port",
      { origin: "http://localhost:8081", "x-csrf-token": "set below" },
      "origin",
    ],
  ])("refuse a write %s, reaching no service", async (_case, headers: Record<string, string>, reason) => {
    const p = await start();
    const { cookie, body } = await signIn(p, p.key("owner"));
    const sent = { ...headers };
    if (sent["x-csrf-token"] === "set below") sent["x-csrf-token"] = body.csrfToken;

    const response = await p.gateway.app.inject(traces({ cookie, ...sent }));

    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ code: "forbidden", details: { reason } });
    expect(p.calls.filter((c) => c.operationId === "ingestTraces")).toEqual([]);
  });

  it("prefer a bearer key sent alongside the cookie, without a CSRF check", async () => {
    const p = await start();
    const { cookie } = await signIn(p, p.key("viewer"));
    const response = await p.gateway.app.inject(
      traces({ cookie, authorization: `Bearer ${p.key("member")}` }),
    );
    expect(response.statusCode).toBe(200);
    expect(p.calls.at(-1)?.context.actor).toMatchObject({ kind: "apiKey" });
  });

  it("refuse a session token sent as a bearer token", async () => {
    const p = await start();
    const { cookie } = await signIn(p, p.key());
    const token = cookie.split("=")[1];
    const response = await p.gateway.app.inject({
      method: "GET",
      url: "/v1/account",
      headers: { authorization: `Bearer ${token}` },
    });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({
      error:
        "A session token works only as the web application's cookie; send an API key as the bearer token",
    });
  });
});

describe("signing out", () => {
  it("ends the session, clears the cookie, and needs the CSRF token", async () => {
    const p = await start();
    const { cookie, body } = await signIn(p, p.key());

    const forged = await p.gateway.app.inject({
      method: "DELETE",
      url: "/v1/session",
      headers: { cookie, origin: ORIGIN },
    });
    expect(forged.statusCode).toBe(403);

    const out = await p.gateway.app.inject({
      method: "DELETE",
      url: "/v1/session",
      headers: { cookie, origin: ORIGIN, "x-csrf-token": body.csrfToken },
    });
    expect(out.statusCode).toBe(204);
    expect(out.headers["set-cookie"]).toBe("svc_session=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax");

    // At once on this gateway; the others hear of it from auth.
    const after = await p.gateway.app.inject({ method: "GET", url: "/v1/account", headers: { cookie } });
    expect(after.statusCode).toBe(401);
  });
});

describe.each([
  ["over HTTP", "http://localhost", "svc_session"],
  ["behind HTTPS", "https://svc.example.com", "__Host-svc_session"],
])("the cookies of every response %s", (_where, publicUrl, name) => {
  it("are HttpOnly and SameSite (and Secure behind HTTPS): no script of the page can read one", async () => {
    const p = await start(publicUrl.startsWith("https:") ? { SVC_PUBLIC_URL: publicUrl } : {});
    const setCookies: string[] = [];
    const send = async (request: InjectOptions) => {
      const response = await p.gateway.app.inject(request);
      const header = response.headers["set-cookie"];
      setCookies.push(...(header === undefined ? [] : Array.isArray(header) ? header : [String(header)]));
      return response;
    };
    const key = p.key("owner");
    const signIn = () =>
      send({ method: "POST", url: "/v1/sessions", headers: { origin: publicUrl }, payload: { apiKey: key } });

    const signedIn = await signIn();
    expect(signedIn.statusCode).toBe(201);
    const cookie = String(signedIn.headers["set-cookie"]).split(";")[0] ?? "";
    const write = { cookie, origin: publicUrl, "x-csrf-token": signedIn.json().csrfToken };
    const answers = [
      await send({ method: "POST", url: "/v1/sessions", payload: { apiKey: "svc_nope" } }),
      await send({ method: "GET", url: "/v1/session", headers: { cookie } }),
      await send({ method: "GET", url: "/v1/account", headers: { cookie } }),
      await send(traces(write)),
      await send(traces({ cookie, origin: publicUrl })),
      await send({ method: "DELETE", url: "/v1/session", headers: write }),
      // Signing out again with the ended session's cookie clears it again.
      await send({ method: "DELETE", url: "/v1/session", headers: write }),
      await send({ method: "GET", url: "/v1/session", headers: { cookie } }),
      await signIn(),
    ];
    expect(answers.map((a) => a.statusCode)).toEqual([401, 200, 200, 200, 403, 204, 204, 401, 201]);

    // Set by the two sign-ins and the two sign-outs, and only by them.
    expect(setCookies.map((c) => c.split("=")[0])).toEqual([name, name, name, name]);
    for (const setCookie of setCookies) {
      const attributes = setCookie.split(";").map((a) => a.trim());
      expect(attributes, setCookie).toContain("HttpOnly");
      expect(attributes, setCookie).toContain("SameSite=Lax");
      expect(attributes.includes("Secure"), setCookie).toBe(publicUrl.startsWith("https:"));
    }
  });
});
