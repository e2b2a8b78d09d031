import { once } from "node:events";
import { readFileSync } from "node:fs";
import { connect } from "node:net";
import { fileURLToPath } from "node:url";
import { subjects } from "@svc/contracts";
import { afterEach, describe, expect, it, vi } from "vitest";
import { type FakePlatform, fakePlatform } from "./testing/fake-platform";

const PUBLIC_URL = "https://svc.example.com";
const METADATA = `${PUBLIC_URL}/.well-known/oauth-protected-resource`;
const ADMIN_TOKEN = "operator-token-0123456789";

let platform: FakePlatform | undefined;
afterEach(async () => {
  await platform?.close();
  platform = undefined;
});

async function start(env: Record<string, string> = {}): Promise<FakePlatform> {
  platform = await fakePlatform({ SVC_PUBLIC_URL: PUBLIC_URL, ...env });
  return platform;
}

const traces = (contentType: string, key: string, payload = '{"resourceSpans":[]}') => ({
  method: "POST" as const,
  url: "/v1/traces",
  headers: { authorization: `Bearer ${key}`, "content-type": contentType, "x-svc-project": "demo" },
  payload,
});

describe("JSON bodies", () => {
  it.each([
    "application/json",
    "application/json; charset=utf-8",
    "application/json;charset=UTF-8",
    "Application/JSON; Charset=utf-8",
    "application/vnd.svc+json",
    "application/merge-patch+json; charset=utf-8",
  ])("accepts Content-Type: %s", async (contentType) => {
    const { gateway, key, calls } = await start();
    const response = await gateway.app.inject(traces(contentType, key("member")));
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ partialSuccess: {} });
    expect(calls.map((c) => [c.operationId, c.input])).toEqual([
      ["ingestTraces", expect.objectContaining({ body: { resourceSpans: [] } })],
    ]);
  });

  it.each([
    "text/plain",
    "text/json",
    "application/jsonl",
    "application/json-seq",
    "application/x-www-form-urlencoded",
    "multipart/form-data; boundary=x",
  ])("refuses Content-Type: %s with 415 and reaches no service", async (contentType) => {
    const { gateway, key, calls } = await start();
    const response = await gateway.app.inject(traces(contentType, key("member")));
    expect(response.statusCode).toBe(415);
    expect(response.json()).toMatchObject({ code: "unsupported_media_type" });
    expect(calls).toEqual([]);
  });

  it("answers malformed JSON sent with a charset with 400, not 415", async () => {
    const { gateway, key } = await start();
    const response = await gateway.app.inject(traces("application/json; charset=utf-8", key(), "{nope"));
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: "validation_failed" });
  });

  it("refuses a number it would store as another number, naming it and where it is, and reaches no service", async () => {
    const { gateway, key, calls } = await start();
    const payload = '{"resourceSpans":[],"n":"é","big":12345678901234567890}';
    const response = await gateway.app.inject(traces("application/json", key("member"), payload));
    expect(response.statusCode).toBe(400);
    const offset = Buffer.byteLength(payload.slice(0, payload.indexOf("1234")));
    expect(response.json()).toMatchObject({
      code: "validation_failed",
      error: `The body holds the number 12345678901234567890 at byte offset ${offset}, which cannot be stored exactly (a number keeps about 15 significant digits); send it as a string`,
      details: { issues: [{ path: "body", code: "inexact_number" }] },
    });
    expect(calls).toEqual([]);
  });

  // JSON.parse reads them as Infinity, which JSON.stringify writes as null: they were stored as null.
  it.each([
    ['{"resourceSpans":[],"n":1e309}', "body.n"],
    ['{"resourceSpans":[],"a":[0,{"b":-1e999}]}', "body.a.1.b"],
    ['{"resourceSpans":[],"__proto__":{"x":1E400}}', "body.__proto__.x"],
  ])(
    "refuses %s, a number beyond a double's range, naming %s, and reaches no service",
    async (payload, where) => {
      const { gateway, key, calls } = await start();
      const response = await gateway.app.inject(traces("application/json", key("member"), payload));
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({
        code: "validation_failed",
        error: `The body's ${where} is a number beyond the range of a double (about ±1.8e308); send a smaller number, or the number as a string`,
        details: {
          issues: [
            {
              path: where,
              message: "is a number beyond the range of a double (about ±1.8e308)",
              code: "number_out_of_range",
            },
          ],
        },
      });
      expect(calls).toEqual([]);
    },
  );

  it("takes numbers a double holds exactly however they are written, and -0 as 0", async () => {
    const { gateway, key, calls } = await start();
    const payload =
      '{"resourceSpans":[],"a":[1.50,1E2,0.30000000000000004,9007199254740992,-0,1.7976931348623157e308,-1e308]}';
    const response = await gateway.app.inject(traces("application/json", key("member"), payload));
    expect(response.statusCode).toBe(200);
    expect(calls).toHaveLength(1);
  });
});

describe("SVC_BODY_LIMIT", () => {
  const body = (bytes: number) => JSON.stringify({ resourceSpans: [], pad: "x".repeat(bytes - 30) });

  it("moves the 413 threshold", async () => {
    const { gateway, key } = await start({ SVC_BODY_LIMIT: "2048" });
    const member = key("member");
    const small = await gateway.app.inject(traces("application/json", member, body(2000)));
    expect(small.statusCode).not.toBe(413);
    const large = await gateway.app.inject(traces("application/json", member, body(3000)));
    expect(large.statusCode).toBe(413);
    expect(large.json()).toEqual({
      error: "The body is larger than the limit of 2048 bytes",
      code: "payload_too_large",
      requestId: large.headers["x-request-id"],
      details: { limit: 2048 },
    });
  });

  it("answers 413 while the body is still coming, and reads the rest so the client gets the answer", async () => {
    const { gateway, key } = await start({ SVC_BODY_LIMIT: "2048" });
    const address = await gateway.app.listen({ port: 0, host: "127.0.0.1" });
    const socket = connect(Number(new URL(address).port), "127.0.0.1");
    await once(socket, "connect");
    let received = "";
    socket.on("data", (chunk: Buffer) => {
      received += chunk.toString("latin1");
    });
    const total = 2_000_000;
    const chunk = "x".repeat(100_000);
    socket.write(
      `POST /v1/traces HTTP/1.1\r\nhost: svc\r\nauthorization: Bearer ${key("member")}\r\n` +
        `x-svc-project: demo\r\ncontent-type: application/json\r\ncontent-length: ${total}\r\n\r\n${chunk}`,
    );
    // The answer comes before the client has sent a tenth of its body.
    await vi.waitFor(() => expect(received).toMatch(/^HTTP\/1\.1 413 /), { timeout: 5_000 });
    expect(received).not.toMatch(/^connection: close/im);
    // The client sends the rest, slowly, as a large upload goes: the connection is not reset under it.
    for (let sent = chunk.length; sent < total; sent += chunk.length) {
      await new Promise<void>((resolve, reject) =>
        socket.write(chunk, (error) => (error ? reject(error) : resolve())),
      );
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    // And the same connection takes the next request.
    received = "";
    socket.write("GET /healthz HTTP/1.1\r\nhost: svc\r\n\r\n");
    await vi.waitFor(() => expect(received).toMatch(/^HTTP\/1\.1 200 /), { timeout: 5_000 });
    socket.destroy();
  });

  it("is a mebibyte by default", async () => {
    const { gateway, key } = await start();
    const member = key("member");
    const under = await gateway.app.inject(traces("application/json", member, body(1024 * 1024 - 100)));
    expect(under.statusCode).not.toBe(413);
    const over = await gateway.app.inject(traces("application/json", member, body(1024 * 1024 + 100)));
    expect(over.statusCode).toBe(413);
  });
});

describe("401 challenges on /v1 routes", () => {
  const bare = `Bearer resource_metadata="${METADATA}"`;
  const invalid = `Bearer resource_metadata="${METADATA}", error="invalid_token", error_description="The access token is not valid; it may have expired or been revoked"`;

  it.each([
    ["no Authorization header", {}, bare],
    ["another scheme", { authorization: "Basic YTpi" }, bare],
    ["an unknown key", { authorization: "Bearer svc_unknown" }, invalid],
  ])("answers %s with the challenge MCP clients discover OAuth from", async (_label, headers, challenge) => {
    const { gateway } = await start();
    const response = await gateway.app.inject({ method: "GET", url: "/v1/account", headers });
    expect(response.statusCode).toBe(401);
    expect(response.headers["www-authenticate"]).toBe(challenge);
    expect(response.json()).toMatchObject({ code: "unauthenticated" });
  });

  it("sends the challenge /v1/mcp sends, naming the whole API's metadata where /v1/mcp names its own", async () => {
    const { gateway } = await start();
    for (const headers of [{}, { authorization: "Bearer svc_unknown" }]) {
      const rest = await gateway.app.inject({ method: "GET", url: "/v1/account", headers });
      const mcp = await gateway.app.inject({ method: "POST", url: "/v1/mcp", headers, payload: {} });
      expect(mcp.statusCode).toBe(401);
      expect(mcp.headers["www-authenticate"]).toContain(`resource_metadata="${METADATA}/v1/mcp"`);
      expect(rest.headers["www-authenticate"]).toBe(
        String(mcp.headers["www-authenticate"]).replace(`${METADATA}/v1/mcp`, METADATA),
      );
    }
  });

  it("derives the metadata address from the request when SVC_PUBLIC_URL is unset", async () => {
    platform = await fakePlatform();
    const response = await platform.gateway.app.inject({
      method: "GET",
      url: "/v1/projects",
      headers: { host: "api.internal:8080" },
    });
    expect(response.headers["www-authenticate"]).toBe(
      'Bearer resource_metadata="http://api.internal:8080/.well-known/oauth-protected-resource"',
    );
  });

  it("sends no challenge with a success, a 403 or a 404", async () => {
    const { gateway, key } = await start();
    const ok = await gateway.app.inject({
      method: "GET",
      url: "/v1/account",
      headers: { authorization: `Bearer ${key("viewer")}` },
    });
    expect(ok.statusCode).toBe(200);
    const forbidden = await gateway.app.inject(traces("application/json", key("viewer")));
    expect(forbidden.statusCode).toBe(403);
    const missing = await gateway.app.inject({ method: "GET", url: "/v1/nothing" });
    expect(missing.statusCode).toBe(404);
    for (const response of [ok, forbidden, missing])
      expect(response.headers["www-authenticate"]).toBeUndefined();
  });
});

describe("roles", () => {
  it("refuses a role below the operation's least role as the services would, before calling one", async () => {
    const { gateway, key, calls, requested } = await start();
    const response = await gateway.app.inject(traces("application/json", key("viewer")));
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({
      error: "This key's role (viewer) may not do this; ingestTraces needs member or higher",
      code: "forbidden",
      requestId: expect.any(String),
    });
    expect(calls).toEqual([]);
    // Only the credential check went out: the refusal cost the trace service nothing.
    expect(requested).toEqual([subjects.auth.verify]);
  });
});

describe("the operator route", () => {
  const create = (token: string) => ({
    method: "POST" as const,
    url: "/v1/organizations",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    payload: { name: "Acme" },
  });

  it("does not exist without SVC_ADMIN_TOKEN, whatever token is sent", async () => {
    const { gateway, key, calls } = await start();
    for (const token of [ADMIN_TOKEN, key("owner")]) {
      const response = await gateway.app.inject(create(token));
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({
        code: "not_found",
        error: "No route POST /v1/organizations",
      });
    }
    expect(calls).toEqual([]);
  });

  it("refuses a wrong operator token, or an API key, with 401 and a challenge", async () => {
    const { gateway, key, calls } = await start({ SVC_ADMIN_TOKEN: ADMIN_TOKEN });
    for (const token of [`${ADMIN_TOKEN}x`, "operator-token-012345678X", key("owner")]) {
      const response = await gateway.app.inject(create(token));
      expect(response.statusCode).toBe(401);
      expect(response.json()).toMatchObject({
        code: "unauthenticated",
        error: "This route needs the operator token",
      });
      expect(response.headers["www-authenticate"]).toContain('error="invalid_token"');
    }
    expect(calls).toEqual([]);
    const created = await gateway.app.inject(create(ADMIN_TOKEN));
    expect(created.statusCode).toBe(201);
    expect(calls.map((c) => c.context)).toEqual([
      expect.objectContaining({ organizationId: null, actor: null }),
    ]);
  });
});

describe("headers that keep an answer from being misread or kept", () => {
  it("sends X-Content-Type-Options: nosniff with every answer, success or refusal", async () => {
    const { gateway, key } = await start();
    const member = { authorization: `Bearer ${key("member")}` };
    const answers = [
      await gateway.app.inject({ method: "GET", url: "/v1/account", headers: member }),
      await gateway.app.inject({ method: "GET", url: "/v1/account" }),
      await gateway.app.inject({ method: "GET", url: "/v1/nothing", headers: member }),
      await gateway.app.inject(traces("application/json", key("member"), "{nope")),
      await gateway.app.inject(traces("text/plain", key("member"))),
      await gateway.app.inject({ method: "GET", url: "/v1/projects/%zz", headers: member }),
      await gateway.app.inject({ method: "POST", url: "/v1/mcp", headers: member, payload: {} }),
      await gateway.app.inject({ method: "GET", url: "/v1/openapi.json" }),
      await gateway.app.inject({ method: "GET", url: "/healthz" }),
    ];
    expect(answers.map((answer) => [answer.statusCode, answer.headers["x-content-type-options"]])).toEqual(
      answers.map((answer) => [answer.statusCode, "nosniff"]),
    );
  });

  it("sends Cache-Control: no-store with a new key's token, and not with other answers", async () => {
    const { gateway, key } = await start({ SVC_ADMIN_TOKEN: ADMIN_TOKEN });
    const created = await gateway.app.inject({
      method: "POST",
      url: "/v1/organizations",
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json" },
      payload: { name: "Acme" },
    });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ apiKey: { token: expect.stringMatching(/^svc_/) } });
    expect(created.headers["cache-control"]).toBe("no-store");
    const account = await gateway.app.inject({
      method: "GET",
      url: "/v1/account",
      headers: { authorization: `Bearer ${key("viewer")}` },
    });
    expect(account.statusCode).toBe(200);
    expect(account.headers["cache-control"]).toBeUndefined();
  });
});

describe("GET /v1/openapi.json", () => {
  it("serves the committed document without a key, as JSON", async () => {
    const { gateway } = await start();
    const response = await gateway.app.inject({ method: "GET", url: "/v1/openapi.json" });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toMatch(/^application\/json(;|$)/);
    const committed = readFileSync(
      fileURLToPath(new URL("../../../shared/contracts/openapi.json", import.meta.url)),
      "utf8",
    );
    expect(response.json()).toEqual(JSON.parse(committed));
  });
});

describe("paths the router cannot take apart", () => {
  it.each([
    [`/v1/projects/${"a".repeat(1_200)}/datasets`, "a path segment is longer than 1000 characters"],
    ["/v1/projects/%zz/datasets", "a path segment is not a valid URL component (a stray % escape)"],
  ])("answers %# in the API's error shape, with a request id", async (url, message) => {
    const { gateway, key } = await start();
    const response = await gateway.app.inject({
      method: "GET",
      url,
      headers: { authorization: `Bearer ${key()}` },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      error: `The URL's path is not valid: ${message}`,
      code: "validation_failed",
      requestId: response.headers["x-request-id"],
      details: { issues: [{ path: "path", message, code: "invalid_path" }] },
    });
  });

  it("answers a request made in-process that it would read on, and lets it go when the linger ends", async () => {
    const { gateway, key } = await start();
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      const response = await gateway.app.inject({
        method: "POST",
        url: "/v1/traces",
        headers: { authorization: `Bearer ${key()}`, "x-svc-project": "demo", "content-type": "text/plain" },
        payload: "not OTLP",
      });
      expect(response.statusCode).toBe(415);
      // The linger's end closes the request: an in-process one has no socket to close, and that is fine.
      expect(() => vi.advanceTimersByTime(10_000)).not.toThrow();
    } finally {
      vi.useRealTimers();
    }
  });
});
