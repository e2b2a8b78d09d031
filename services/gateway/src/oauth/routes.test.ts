import { InProcessBus } from "@svc/bus";
import { type CheckedAuthorization, subjects } from "@svc/contracts";
import { silentLogger } from "@svc/telemetry";
import type { FastifyInstance } from "fastify";
import { afterEach, describe, expect, it } from "vitest";
import { buildGateway } from "../app";
import { gatewayOptionsSchema } from "../config";

const checked: CheckedAuthorization = {
  clientId: "svc_client_abc",
  clientName: "Agent",
  redirectUri: "http://127.0.0.1:9/cb",
  codeChallenge: "c".repeat(43),
  state: "s",
};

describe("OAuth routes behind a proxy", () => {
  let bus: InProcessBus;
  let app: FastifyInstance;

  async function gateway(env: Record<string, string> = {}) {
    bus = new InProcessBus();
    bus.serve(subjects.oauth.checkAuthorization, async () => ({ ok: true, data: checked }));
    bus.serve(subjects.oauth.approveAuthorization, async () => ({
      ok: false,
      error: { code: "unauthenticated", message: "That API key is not valid" },
    }));
    app = buildGateway({ bus, logger: silentLogger(), options: gatewayOptionsSchema.parse(env) }).app;
    await app.ready();
  }
  afterEach(async () => {
    await app?.close();
    await bus?.close();
  });

  const forwardedHeaders = {
    host: "10.0.0.7:8080",
    "x-forwarded-proto": "https",
    "x-forwarded-host": "svc.example.com",
  };
  const metadata = async (headers: Record<string, string>) => {
    const response = await app.inject({ url: "/.well-known/oauth-authorization-server", headers });
    expect(response.statusCode).toBe(200);
    return response.json() as { issuer: string; authorization_endpoint: string; token_endpoint: string };
  };

  it("ignores X-Forwarded-Proto and X-Forwarded-Host by default: any client could send them", async () => {
    await gateway();
    expect(await metadata(forwardedHeaders)).toMatchObject({
      issuer: "http://10.0.0.7:8080",
      authorization_endpoint: "http://10.0.0.7:8080/oauth/authorize",
    });
  });

  it("with SVC_TRUST_PROXY=true, announces the https address the client used", async () => {
    await gateway({ SVC_TRUST_PROXY: "true" });
    expect(await metadata(forwardedHeaders)).toMatchObject({
      issuer: "https://svc.example.com",
      authorization_endpoint: "https://svc.example.com/oauth/authorize",
      token_endpoint: "https://svc.example.com/oauth/token",
    });
    const resource = await app.inject({
      url: "/.well-known/oauth-protected-resource/v1/mcp",
      headers: forwardedHeaders,
    });
    expect(resource.json()).toMatchObject({
      resource: "https://svc.example.com/v1/mcp",
      authorization_servers: ["https://svc.example.com"],
    });
    const challenge = await app.inject({
      method: "POST",
      url: "/v1/mcp",
      headers: forwardedHeaders,
      payload: {},
    });
    expect(challenge.statusCode).toBe(401);
    expect(challenge.headers["www-authenticate"]).toContain(
      'resource_metadata="https://svc.example.com/.well-known/oauth-protected-resource/v1/mcp"',
    );
  });

  it("takes the first hop of a chain, and falls back to the request's own for values it cannot trust", async () => {
    await gateway({ SVC_TRUST_PROXY: "true" });
    const headers = { host: "10.0.0.7:8080" };
    expect(
      (
        await metadata({
          ...headers,
          "x-forwarded-proto": "HTTPS, http",
          "x-forwarded-host": "svc.example.com:8443, lb",
        })
      ).issuer,
    ).toBe("https://svc.example.com:8443");
    expect((await metadata({ ...headers, "x-forwarded-proto": "https" })).issuer).toBe(
      "https://10.0.0.7:8080",
    );
    expect(
      (
        await metadata({
          ...headers,
          "x-forwarded-proto": "javascript",
          "x-forwarded-host": "evil.example/x?",
        })
      ).issuer,
    ).toBe("http://10.0.0.7:8080");
    expect((await metadata({ ...headers, "x-forwarded-host": "[::1]:9000" })).issuer).toBe(
      "http://[::1]:9000",
    );
  });

  it("prefers SVC_PUBLIC_URL to anything the request says", async () => {
    await gateway({ SVC_TRUST_PROXY: "true", SVC_PUBLIC_URL: "https://api.example.org/svc" });
    expect((await metadata(forwardedHeaders)).issuer).toBe("https://api.example.org/svc");
  });

  it("refuses an SVC_TRUST_PROXY that is not true or false", () => {
    expect(gatewayOptionsSchema.safeParse({ SVC_TRUST_PROXY: "yes" }).error?.issues[0]).toMatchObject({
      path: ["SVC_TRUST_PROXY"],
      message: 'must be "true" or "false"',
    });
    expect(gatewayOptionsSchema.parse({}).SVC_TRUST_PROXY).toBe(false);
  });

  it("posts the consent form to the public URL, path prefix included, also after a failed attempt", async () => {
    await gateway({ SVC_PUBLIC_URL: "https://svc.example.com/prefix" });
    const query = new URLSearchParams({
      client_id: checked.clientId,
      redirect_uri: checked.redirectUri,
      response_type: "code",
      code_challenge: checked.codeChallenge,
      code_challenge_method: "S256",
      state: "s",
    });
    const page = await app.inject({ url: `/oauth/authorize?${query}` });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(
      '<form method="post" action="https://svc.example.com/prefix/oauth/authorize"',
    );

    const retry = await app.inject({
      method: "POST",
      url: "/oauth/authorize",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: `${query}&api_key=svc_wrong&role=member&decision=approve`,
    });
    expect(retry.statusCode).toBe(401);
    expect(retry.body).toContain("That API key is not valid");
    expect(retry.body).toContain(
      '<form method="post" action="https://svc.example.com/prefix/oauth/authorize"',
    );
  });
});
