import { InProcessBus } from "@svc/bus";
import { subjects, type VerifiedCredential } from "@svc/contracts";
import { silentLogger } from "@svc/telemetry";
import type { FastifyInstance } from "fastify";
import { afterEach, describe, expect, it } from "vitest";
import { buildGateway } from "../app";
import { gatewayOptionsSchema } from "../config";

const TOKEN = `svc_at_${"t".repeat(43)}`;
const credential: VerifiedCredential = {
  organizationId: "org1",
  role: "member",
  actor: { kind: "oauth", id: "grant1" },
};
const toolsList = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" });

describe("the MCP endpoint's Origin check", () => {
  let bus: InProcessBus;
  let app: FastifyInstance;

  async function gateway(env: Record<string, string> = {}) {
    bus = new InProcessBus();
    bus.serve(subjects.auth.verify, async (request) =>
      (request.input as { token: string }).token === TOKEN
        ? { ok: true, data: credential }
        : { ok: false, error: { code: "unauthenticated", message: "The API key is not valid" } },
    );
    app = buildGateway({ bus, logger: silentLogger(), options: gatewayOptionsSchema.parse(env) }).app;
    await app.ready();
  }
  afterEach(async () => {
    await app?.close();
    await bus?.close();
  });

  const post = (headers: Record<string, string>) =>
    app.inject({
      method: "POST",
      url: "/v1/mcp",
      headers: {
        host: "127.0.0.1:8080",
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        ...headers,
      },
      payload: toolsList,
    });

  it.each([
    ["another site", "https://evil.example"],
    ["the same host on another port", "http://127.0.0.1:9999"],
    ["the same host over another scheme", "https://127.0.0.1:8080"],
    ["an opaque origin", "null"],
  ])("refuses a browser request from %s with 403, before looking at the token", async (_label, origin) => {
    await gateway();
    const response = await post({ origin, authorization: `Bearer ${TOKEN}` });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({
      error: expect.stringContaining(`may not use the MCP endpoint; only http://127.0.0.1:8080`),
      code: "forbidden",
      requestId: expect.any(String),
    });
    expect(response.headers["www-authenticate"]).toBeUndefined();
  });

  it("refuses a foreign origin on GET and DELETE too", async () => {
    await gateway();
    for (const method of ["GET", "DELETE"] as const) {
      const response = await app.inject({
        method,
        url: "/v1/mcp",
        headers: { host: "127.0.0.1:8080", origin: "https://evil.example", authorization: `Bearer ${TOKEN}` },
      });
      expect(response.statusCode).toBe(403);
      expect(response.json()).toMatchObject({ code: "forbidden" });
    }
  });

  it("serves requests without an Origin (agents outside browsers) and from its own origin", async () => {
    await gateway();
    const bare = await post({ authorization: `Bearer ${TOKEN}` });
    expect(bare.statusCode).toBe(200);
    expect(bare.json()).toMatchObject({ result: { tools: expect.any(Array) } });
    const own = await post({ origin: "http://127.0.0.1:8080", authorization: `Bearer ${TOKEN}` });
    expect(own.statusCode).toBe(200);
    expect(own.json().result.tools.length).toBeGreaterThan(10);
    // Past the Origin check, a missing token is still the 401 that starts OAuth discovery.
    const anonymous = await post({ origin: "http://127.0.0.1:8080" });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.headers["www-authenticate"]).toContain("resource_metadata=");
  });

  it("compares with the origin of SVC_PUBLIC_URL when set, path prefix and default port aside", async () => {
    await gateway({ SVC_PUBLIC_URL: "https://svc.example.com:443/prefix" });
    expect(
      (await post({ origin: "https://svc.example.com", authorization: `Bearer ${TOKEN}` })).statusCode,
    ).toBe(200);
    expect(
      (await post({ origin: "http://127.0.0.1:8080", authorization: `Bearer ${TOKEN}` })).statusCode,
    ).toBe(403);
  });
});
