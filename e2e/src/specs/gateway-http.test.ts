import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { expectError, makeDataset, type Row } from "../factories";
import { client } from "../http";
import { entryOf, root, spawnNode } from "../platform";
import { projectForSuite, targets } from "../targets";

/** What the gateway itself does over HTTP, whichever way the platform runs. */
describe.each(targets())("gateway over HTTP (%s)", (_name, start) => {
  const suite = projectForSuite(start);

  const send = (method: string, path: string, contentType: string, body: string, headers = {}) =>
    fetch(`${suite.target.baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${suite.target.ownerKey}`, "content-type": contentType, ...headers },
      body,
    });

  describe("JSON with a charset", () => {
    it.each(["application/json; charset=utf-8", "application/json;charset=UTF-8", "Application/JSON"])(
      "edits a row sent as %s",
      async (contentType) => {
        const { base } = await makeDataset(suite.api, suite.project, { rows: 1 });
        const edit = await send("PATCH", `${base}/rows/r0`, contentType, JSON.stringify({ output: "é ✓" }));
        expect(edit.status).toBe(200);
        const row = await suite.api.get<Row>(`${base}/rows/r0`);
        expect(row.body).toMatchObject({ output: "é ✓", version: 2 });
      },
    );

    it("ingests OTLP traces sent as application/json; charset=utf-8", async () => {
      const traceId = randomBytes(16).toString("hex");
      const span = {
        traceId,
        spanId: "00f067aa0ba902b7",
        name: "charset",
        startTimeUnixNano: "1",
        endTimeUnixNano: "2",
      };
      const sent = await send(
        "POST",
        "/v1/traces",
        "application/json; charset=utf-8",
        JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans: [span] }] }] }),
        { "x-svc-project": suite.project },
      );
      expect(sent.status).toBe(200);
      expect(await sent.json()).toEqual({ partialSuccess: {} });
      const trace = await suite.api.get<{ traceId: string; rootSpanName: string }>(
        `/v1/projects/${suite.project}/traces/${traceId}`,
      );
      expect(trace.status).toBe(200);
      expect(trace.body).toMatchObject({ traceId, rootSpanName: "charset" });
    });

    it.each(["text/plain; charset=utf-8", "application/jsonl", "text/json"])(
      "still refuses %s with 415, on the API and on /v1/traces",
      async (contentType) => {
        const { base } = await makeDataset(suite.api, suite.project, { rows: 1 });
        for (const [method, path] of [
          ["PATCH", `${base}/rows/r0`],
          ["POST", "/v1/traces"],
        ] as const) {
          const refused = await send(method, path, contentType, "{}", { "x-svc-project": suite.project });
          expect(refused.status, `${method} ${path}`).toBe(415);
          expect(await refused.json()).toMatchObject({ code: "unsupported_media_type" });
        }
        expect((await suite.api.get<Row>(`${base}/rows/r0`)).body.version).toBe(1);
      },
    );
  });

  describe("401 challenges", () => {
    const metadata = () => `${suite.target.baseUrl}/.well-known/oauth-protected-resource`;

    it("names the resource metadata on every 401 of the API, as /v1/mcp names its own", async () => {
      const anonymous = await fetch(`${suite.target.baseUrl}/v1/projects`);
      expect(anonymous.status).toBe(401);
      expect(anonymous.headers.get("www-authenticate")).toBe(`Bearer resource_metadata="${metadata()}"`);
      const mcp = await fetch(`${suite.target.baseUrl}/v1/mcp`, { method: "POST" });
      expect(mcp.headers.get("www-authenticate")).toBe(`Bearer resource_metadata="${metadata()}/v1/mcp"`);

      await expectError(
        client(suite.target.baseUrl, "svc_unknownkeyunknownkey").get("/v1/projects"),
        401,
        "unauthenticated",
      );
      const refused = await fetch(`${suite.target.baseUrl}/v1/projects/${suite.project}/datasets`, {
        headers: { authorization: "Bearer svc_unknownkeyunknownkey" },
      });
      expect(refused.headers.get("www-authenticate")).toBe(
        `Bearer resource_metadata="${metadata()}", error="invalid_token", error_description="The access token is not valid; it may have expired or been revoked"`,
      );
    });

    it("points at metadata that exists and names this API", async () => {
      const anonymous = await fetch(`${suite.target.baseUrl}/v1/account`);
      const url = /resource_metadata="([^"]+)"/.exec(anonymous.headers.get("www-authenticate") ?? "")?.[1];
      const document = await fetch(url ?? "");
      expect(document.status).toBe(200);
      expect(await document.json()).toMatchObject({ resource: suite.target.baseUrl });
    });
  });

  describe("GET /v1/openapi.json", () => {
    it("serves the committed document, without a key, as JSON", async () => {
      const response = await fetch(`${suite.target.baseUrl}/v1/openapi.json`);
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toMatch(/^application\/json(;|$)/);
      const committed = JSON.parse(readFileSync(join(root, "shared/contracts/openapi.json"), "utf8"));
      expect(await response.json()).toEqual(committed);
    });
  });
});

describe("gateway configuration at start", () => {
  it.each([
    ["SVC_AUTH_CACHE_MS", "5001", "must be at most 5000 ms"],
    ["SVC_RATE_LIMIT_KEY_PER_SECOND", "0", "must be a number of requests per second above 0"],
    ["SVC_RATE_LIMIT_ENABLED", "yes", 'must be "true" or "false"'],
  ])("refuses %s=%s, naming the variable, and exits", async (name, value, message) => {
    // Configuration is read before anything connects: no NATS is needed to be refused.
    const gateway = spawnNode("gateway", entryOf("gateway"), {
      NATS_URL: "nats://127.0.0.1:9",
      [name]: value,
    });
    const code = await gateway.exited;
    expect(code).not.toBe(0);
    expect(gateway.output.join("")).toContain(`${name}: ${message}`);
  });
});
