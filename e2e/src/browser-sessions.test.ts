import { randomBytes } from "node:crypto";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { realInfra } from "@svc/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { interrupt, kill, scratchDir, spawnEmbedded, type Watched, waitRunning } from "./embedded";
import { client } from "./http";
import { freePort, type Platform, startPlatform, waitFor } from "./platform";

interface Session {
  csrfToken: string;
  role: string;
  organization: { id: string };
  expiresAt: string;
  sessionId: string;
}

/** A browser, as far as the gateway can tell: one cookie jar, this site's Origin, the CSRF token. */
function browser(baseUrl: string) {
  let cookie = "";
  let csrfToken = "";
  const send = async <T = unknown>(
    method: string,
    path: string,
    body?: unknown,
    extra: Record<string, string> = {},
  ) => {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: {
        ...(cookie ? { cookie } : {}),
        ...(method === "GET" ? {} : { origin: baseUrl, "x-csrf-token": csrfToken }),
        ...(body === undefined ? {} : { "content-type": "application/json" }),
        ...extra,
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const setCookie = response.headers.get("set-cookie");
    if (setCookie) cookie = setCookie.split(";")[0] ?? "";
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : null) as T, setCookie };
  };
  return {
    send,
    async signIn(credential: { apiKey: string } | { signInCode: string }) {
      const response = await send<Session>("POST", "/v1/sessions", credential);
      if (response.status === 201) csrfToken = response.body.csrfToken;
      return response;
    },
    /** The same cookie at another gateway of the platform. */
    at(otherBaseUrl: string) {
      const other = browser(otherBaseUrl);
      other.adopt(cookie, csrfToken);
      return other;
    },
    adopt(withCookie: string, withCsrf: string) {
      cookie = withCookie;
      csrfToken = withCsrf;
    },
    get cookie() {
      return cookie;
    },
  };
}

describe.runIf(realInfra())("browser sessions on the distributed platform", () => {
  let platform: Platform;
  let second: string;

  beforeAll(async () => {
    // A five-second credential cache: only the revocation event can end a session everywhere in time.
    platform = await startPlatform({ gatewayEnv: { SVC_AUTH_CACHE_MS: "5000" } });
    second = await platform.startGateway();
  });
  afterAll(async () => {
    await platform?.stop();
  });

  it("signs in with a key, works at every gateway, and records the session as the actor of what it changes", async () => {
    const owner = client(platform.baseUrl, platform.ownerKey);
    const key = await owner.post<{ id: string; token: string }>("/v1/api-keys", {
      name: "curator",
      role: "member",
    });
    const person = browser(platform.baseUrl);

    const signedIn = await person.signIn({ apiKey: key.body.token });
    expect(signedIn.status).toBe(201);
    expect(signedIn.setCookie).toMatch(
      /^svc_session=svc_ss_[^;]+; Path=\/; Max-Age=\d+; HttpOnly; SameSite=Lax$/,
    );
    expect(signedIn.body).toMatchObject({ role: "member", csrfToken: expect.any(String) });

    const elsewhere = person.at(second);
    expect((await elsewhere.send<Session>("GET", "/v1/session")).body).toEqual(signedIn.body);
    const project = `p${randomBytes(3).toString("hex")}`;
    expect((await elsewhere.send("POST", "/v1/projects", { name: project })).status).toBe(201);
    expect((await person.send("POST", `/v1/projects/${project}/datasets`, { name: "golden" })).status).toBe(
      201,
    );
    const inserted = await elsewhere.send<{ version: number }>(
      "POST",
      `/v1/projects/${project}/datasets/golden/rows`,
      { rows: [{ id: "r1", input: "2+2?" }] },
    );
    expect(inserted.status).toBe(201);

    const versions = await owner.get<{ items: { version: number; actor: { kind: string; id: string } }[] }>(
      `/v1/projects/${project}/datasets/golden/versions`,
    );
    expect(versions.body.items).toEqual([
      // The session names itself as history does, so the page can say "You".
      expect.objectContaining({ version: 1, actor: { kind: "session", id: signedIn.body.sessionId } }),
    ]);
    // A write without the CSRF token is refused, whichever gateway gets it.
    const forged = await elsewhere.send("POST", "/v1/projects", { name: "forged" }, { "x-csrf-token": "" });
    expect(forged.status).toBe(403);
  });

  it("ends a session at every gateway within a second when its key is revoked", async () => {
    const owner = client(platform.baseUrl, platform.ownerKey);
    const key = await owner.post<{ id: string; token: string }>("/v1/api-keys", {
      name: "doomed",
      role: "admin",
    });
    const person = browser(platform.baseUrl);
    expect((await person.signIn({ apiKey: key.body.token })).status).toBe(201);
    const elsewhere = person.at(second);
    // Warm both gateways' caches, so that only the revocation event can clear them in time.
    expect((await person.send("GET", "/v1/account")).status).toBe(200);
    expect((await elsewhere.send("GET", "/v1/account")).status).toBe(200);

    expect((await owner.delete(`/v1/api-keys/${key.body.id}`)).status).toBe(204);
    const revokedAt = Date.now();
    await waitFor(
      "the session to end at both gateways",
      async () => {
        const [here, there] = await Promise.all([
          person.send("GET", "/v1/account"),
          elsewhere.send("GET", "/v1/account"),
        ]);
        return here.status === 401 && there.status === 401 ? true : undefined;
      },
      3_000,
    );
    expect(Date.now() - revokedAt).toBeLessThan(1_000);
  });

  it("signs out at once everywhere, and the cookie no longer works", async () => {
    const person = browser(platform.baseUrl);
    expect((await person.signIn({ apiKey: platform.ownerKey })).status).toBe(201);
    const elsewhere = person.at(second);
    const stolenCookie = person.cookie;
    expect((await elsewhere.send("GET", "/v1/account")).status).toBe(200);

    const out = await person.send("DELETE", "/v1/session");
    expect(out.status).toBe(204);
    expect(out.setCookie).toBe("svc_session=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax");

    const replay = browser(second);
    replay.adopt(stolenCookie, "");
    await waitFor(
      "the other gateway to forget the session",
      async () => ((await replay.send("GET", "/v1/account")).status === 401 ? true : undefined),
      1_000,
    );
    expect((await replay.send("GET", "/v1/session")).status).toBe(401);
  });
});

describe("the embedded platform's sign-in link", () => {
  let proc: Watched | undefined;
  const dir = scratchDir("sign-in");
  afterAll(async () => {
    await kill(proc);
    rmSync(dir, { recursive: true, force: true });
  });

  it("prints a link that signs the owner in once, and never logs it", async () => {
    proc = spawnEmbedded({ SVC_DATA_DIR: join(dir, "data"), PORT: String(await freePort()) });
    const address = await waitRunning(proc);
    await waitFor("the sign-in link", async () =>
      /sign-in#code=/.test(proc?.stdout.join("") ?? "") ? true : undefined,
    );
    const line = proc.stdout
      .join("")
      .split("\n")
      .find((l) => l.includes("sign-in#code="));
    const match =
      /^open (http:\/\/\S+)\/sign-in#code=(svc_sc_[A-Za-z0-9_-]{43}) to sign in \(the link works once, for 15 minutes\)$/.exec(
        line ?? "",
      );
    expect(match?.[1]).toBe(address);
    const code = match?.[2] ?? "";

    const person = browser(address);
    const signedIn = await person.signIn({ signInCode: code });
    expect(signedIn.status).toBe(201);
    expect(signedIn.body).toMatchObject({ role: "owner", organization: { slug: "default" } });
    expect((await person.send("GET", "/v1/projects")).status).toBe(200);

    const again = await browser(address).signIn({ signInCode: code });
    expect(again.status).toBe(401);
    expect(proc.stderr.join("")).not.toContain(code);
    expect((await interrupt(proc)).exit).toBe(0);
    expect(proc.stdout.join("").split(code).length).toBe(2);
  });
});
