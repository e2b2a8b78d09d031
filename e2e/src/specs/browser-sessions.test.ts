import { createHash, randomBytes } from "node:crypto";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { realInfra } from "@svc/testing";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { interrupt, kill, scratchDir, spawnEmbedded, type Watched, waitRunning } from "../embedded";
import { client } from "../http";
import { freePort, startedForSuite, startWithTwoGateways, waitFor } from "../platform";

interface Session {
  csrfToken: string;
  role: string;
  organization: { id: string };
  expiresAt: string;
  sessionId: string;
}

/**
 * No cookie of any response may be one a script of the page could read (HttpOnly), or one another
 * site's requests carry along (SameSite); behind HTTPS each is also Secure.
 */
function expectUnreadableByScripts(setCookies: string[], baseUrl: string): void {
  for (const setCookie of setCookies) {
    const attributes = setCookie.split(";").map((part) => part.trim().toLowerCase());
    expect(attributes, setCookie).toContain("httponly");
    expect(
      attributes.filter((a) => a === "samesite=lax" || a === "samesite=strict"),
      setCookie,
    ).toHaveLength(1);
    if (baseUrl.startsWith("https:")) expect(attributes, setCookie).toContain("secure");
  }
}

/** A browser, as far as the gateway can tell: one cookie jar, this site's Origin, the CSRF token. */
function browser(baseUrl: string) {
  let cookie = "";
  let csrfToken = "";
  /** `extra` adds or replaces headers; a header given as undefined is not sent. */
  const send = async <T = unknown>(
    method: string,
    path: string,
    body?: unknown,
    extra: Record<string, string | undefined> = {},
  ) => {
    const headers: Record<string, string> = {
      ...(cookie ? { cookie } : {}),
      ...(method === "GET" ? {} : { origin: baseUrl, "x-csrf-token": csrfToken }),
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    };
    for (const [name, value] of Object.entries(extra)) {
      if (value === undefined) delete headers[name];
      else headers[name] = value;
    }
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    expectUnreadableByScripts(response.headers.getSetCookie(), baseUrl);
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
    get csrfToken() {
      return csrfToken;
    },
  };
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function withDatabase<T>(databaseUrl: string, use: (db: pg.Client) => Promise<T>): Promise<T> {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    return await use(db);
  } finally {
    await db.end();
  }
}

describe.runIf(realInfra())("browser sessions on the distributed platform", () => {
  const platform = startedForSuite(startWithTwoGateways);

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
      /^svc_session=svc_ss_[^;]+; Max-Age=\d+; Path=\/; HttpOnly; SameSite=Lax$/,
    );
    expect(signedIn.body).toMatchObject({ role: "member", csrfToken: expect.any(String) });

    const elsewhere = person.at(platform.second);
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
    const elsewhere = person.at(platform.second);
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
    const elsewhere = person.at(platform.second);
    const stolenCookie = person.cookie;
    const signedInCsrf = person.csrfToken;
    expect((await elsewhere.send("GET", "/v1/account")).status).toBe(200);

    const out = await person.send("DELETE", "/v1/session");
    expect(out.status).toBe(204);
    expect(out.setCookie).toBe("svc_session=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax");

    const replay = browser(platform.second);
    replay.adopt(stolenCookie, "");
    await waitFor(
      "the other gateway to forget the session",
      async () => ((await replay.send("GET", "/v1/account")).status === 401 ? true : undefined),
      1_000,
    );
    expect((await replay.send("GET", "/v1/session")).status).toBe(401);
    // Nor does it work anywhere for a write, even with the session's CSRF token and this site's Origin.
    for (const gateway of platform.gateways) {
      const thief = browser(gateway);
      thief.adopt(stolenCookie, signedInCsrf);
      expect((await thief.send("GET", "/v1/account")).status, gateway).toBe(401);
      expect((await thief.send("POST", "/v1/projects", { name: "after sign-out" })).status, gateway).toBe(
        401,
      );
    }
  });

  it("refuses, at every gateway, a write made with the cookie without its CSRF token or from another site, and changes nothing", async () => {
    const person = browser(platform.baseUrl);
    expect((await person.signIn({ apiKey: platform.ownerKey })).status).toBe(201);
    const other = browser(platform.baseUrl);
    expect((await other.signIn({ apiKey: platform.ownerKey })).status).toBe(201);
    const port = Number(new URL(platform.baseUrl).port);
    const forgeries: [string, Record<string, string | undefined>, "csrf" | "origin"][] = [
      ["without the CSRF token", { "x-csrf-token": undefined }, "csrf"],
      ["with an empty CSRF token", { "x-csrf-token": "" }, "csrf"],
      ["with another session's CSRF token", { "x-csrf-token": other.csrfToken }, "csrf"],
      ["without an Origin", { origin: undefined }, "origin"],
      ["from another site", { origin: "https://evil.example" }, "origin"],
      ["from this host on another port", { origin: `http://127.0.0.1:${port + 1}` }, "origin"],
    ];
    const tried: string[] = [];
    for (const gateway of platform.gateways) {
      const at = person.at(gateway);
      for (const [how, headers, reason] of forgeries) {
        const name = `forged ${randomBytes(3).toString("hex")}`;
        tried.push(name);
        const answer = await at.send("POST", "/v1/projects", { name }, headers);
        expect(answer.status, `${how} at ${gateway}`).toBe(403);
        expect(answer.body, `${how} at ${gateway}`).toMatchObject({ code: "forbidden", details: { reason } });
        // Signing out is a write too: a page of another site must not end the person's session.
        const out = await at.send("DELETE", "/v1/session", undefined, headers);
        expect(out.status, `sign-out ${how} at ${gateway}`).toBe(403);
        expect(out.setCookie, `sign-out ${how} at ${gateway}`).toBeNull();
      }
    }

    const owner = client(platform.baseUrl, platform.ownerKey);
    const projects = await owner.get<{ items: { name: string }[] }>("/v1/projects?limit=100");
    expect(projects.status).toBe(200);
    expect(projects.body.items.filter((p) => tried.includes(p.name))).toEqual([]);
    // The session was neither used nor ended by the forgeries: with its token, from this site, it writes.
    for (const gateway of platform.gateways) {
      const name = `genuine ${randomBytes(3).toString("hex")}`;
      expect((await person.at(gateway).send("POST", "/v1/projects", { name })).status, gateway).toBe(201);
    }
  });

  it("keeps only a hash of the session token: no column of any table holds the cookie's value", async () => {
    const person = browser(platform.baseUrl);
    const signedIn = await person.signIn({ apiKey: platform.ownerKey });
    expect(signedIn.status).toBe(201);
    const token = person.cookie.slice("svc_session=".length);
    expect(token).toMatch(/^svc_ss_[A-Za-z0-9_-]{43}$/);
    const secret = token.slice("svc_ss_".length);

    await withDatabase(platform.databaseUrl, async (db) => {
      const stored = await db.query("SELECT * FROM browser_sessions WHERE id = $1", [
        signedIn.body.sessionId,
      ]);
      expect(stored.rows).toHaveLength(1);
      expect(stored.rows[0].token_hash).toBe(createHash("sha256").update(token).digest("hex"));
      // Not in that row, nor anywhere else in the database, with its prefix or without it.
      const tables = await db.query<{ name: string }>(
        "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'",
      );
      expect(tables.rows.map((t) => t.name)).toContain("browser_sessions");
      const holding: string[] = [];
      for (const { name } of tables.rows) {
        const found = await db.query(`SELECT 1 FROM "${name}" AS t WHERE strpos(t::text, $1) > 0 LIMIT 1`, [
          secret,
        ]);
        if (found.rows.length > 0) holding.push(name);
      }
      expect(holding).toEqual([]);
    });
  });

  it("ends a session at its expiry, and one left idle, at every gateway, even with their caches warm", async () => {
    const ending = browser(platform.baseUrl);
    const ended = await ending.signIn({ apiKey: platform.ownerKey });
    const idle = browser(platform.baseUrl);
    const idled = await idle.signIn({ apiKey: platform.ownerKey });
    expect([ended.status, idled.status]).toEqual([201, 201]);
    // A session lasts a minute at the least, so time is moved in the database rather than waited for:
    // the first session ends in a few seconds, the second was last used nine hours ago (its idle limit
    // is eight). Then the verifications the gateways hold from the sign-ins (five seconds here) lapse.
    const endsAt = new Date(Date.now() + 8_000);
    await withDatabase(platform.databaseUrl, async (db) => {
      await db.query("UPDATE browser_sessions SET expires_at = $2 WHERE id = $1", [
        ended.body.sessionId,
        endsAt,
      ]);
      await db.query("UPDATE browser_sessions SET last_seen_at = now() - interval '9 hours' WHERE id = $1", [
        idled.body.sessionId,
      ]);
    });
    await pause(5_100);

    for (const gateway of platform.gateways) {
      expect((await idle.at(gateway).send("GET", "/v1/account")).status, `idle at ${gateway}`).toBe(401);
      // Both gateways verify the first session again and learn its end, which their caches must honour.
      const now = await ending.at(gateway).send<Session>("GET", "/v1/session");
      expect(now.status, gateway).toBe(200);
      expect(now.body.expiresAt).toBe(endsAt.toISOString());
      expect((await ending.at(gateway).send("GET", "/v1/account")).status, gateway).toBe(200);
    }
    expect(Date.now()).toBeLessThan(endsAt.getTime());

    await pause(endsAt.getTime() - Date.now() + 100);
    for (const gateway of platform.gateways) {
      const at = ending.at(gateway);
      expect((await at.send("GET", "/v1/account")).status, `expired at ${gateway}`).toBe(401);
      expect((await at.send("GET", "/v1/session")).status, `expired at ${gateway}`).toBe(401);
      expect((await at.send("POST", "/v1/projects", { name: "too late" })).status, gateway).toBe(401);
    }
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
