import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { realInfra } from "@svc/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client as httpClient } from "../http";
import { type ConnectedAgent, connectAgent, mcpClient, sendToolsList } from "../mcp-agent";
import { AUTH_CACHE_MS, startedForSuite, startPlatform, startWithTwoGateways } from "../platform";
import { startEmbedded } from "../targets";

const sleepUntil = (at: number) =>
  new Promise((resolve) => setTimeout(resolve, Math.max(0, at - Date.now())));

describe.runIf(realInfra())("MCP tokens end to end, with gateways that cache verifications", () => {
  const agents: ConnectedAgent[] = [];
  /**
   * Agents hang up before their platform stops, which would otherwise wait for their streams: the
   * suite's own afterAll runs before the one `startedForSuite` registered earlier.
   */
  const hangUp = async () => {
    await Promise.allSettled(agents.splice(0).map((agent) => agent.client.close()));
  };

  describe("an access token that expires (lifetime 2 s, gateway cache 5 s)", () => {
    const platform = startedForSuite(() =>
      startPlatform({
        env: { SVC_OAUTH_ACCESS_TOKEN_TTL_MS: "2000", SVC_AUTH_CACHE_MS: String(AUTH_CACHE_MS) },
      }),
    );
    let mcpUrl: URL;

    beforeAll(() => {
      mcpUrl = new URL(`${platform.baseUrl}/v1/mcp`);
    });
    afterAll(hangUp);

    it("stops working when it expires, though the gateway has it cached, and refresh brings a working one", async () => {
      const agent = await connectAgent(mcpUrl, { apiKey: platform.ownerKey, role: "member" });
      agents.push(agent);
      const first = agent.provider.saved;
      if (!first?.refresh_token) throw new Error("no refresh token");
      expect(first.expires_in).toBe(2);
      expect((await agent.client.listTools()).tools.length).toBeGreaterThan(10);
      expect((await httpClient(platform.baseUrl, first.access_token).get("/v1/account")).status).toBe(200);

      // Issued before authorizedAt, so expired 2 s after it at the latest.
      await sleepUntil(agent.authorizedAt + 2_300);
      const expired = await sendToolsList(mcpUrl, first.access_token);
      // The gateway first verified the token after authorizedAt: its cache alone would still say yes.
      expect(Date.now() - agent.authorizedAt).toBeLessThan(AUTH_CACHE_MS);
      expect(expired.status).toBe(401);
      expect(expired.headers.get("www-authenticate")).toContain('error="invalid_token"');
      const rest = await httpClient(platform.baseUrl, first.access_token).get("/v1/account");
      expect(rest.status).toBe(401);
      // Said of the token the client sent, not of an API key it never had.
      expect(rest.body).toMatchObject({
        error:
          "The access token is not valid; it may have expired or been revoked. Refresh it, or authorize again",
      });

      // The official client meets the 401, refreshes on its own and retries the call.
      const result = (await agent.client.callTool({ name: "listProjects", arguments: {} })) as CallToolResult;
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toMatchObject({ items: expect.any(Array) });
      const second = agent.provider.saved;
      expect(second?.access_token).toMatch(/^svc_at_/);
      expect(second?.access_token).not.toBe(first.access_token);
      expect(second?.refresh_token).not.toBe(first.refresh_token);
      expect(second?.expires_in).toBe(2);
      expect((await sendToolsList(mcpUrl, second?.access_token ?? "")).status).toBe(200);
      expect((await sendToolsList(mcpUrl, first.access_token)).status).toBe(401);
    });
  });

  describe("revoking the API key that approved a grant (two gateways, cache 5 s)", () => {
    const platform = startedForSuite(startWithTwoGateways);
    afterAll(hangUp);

    it("ends the grant's access token at every gateway at once, and the agent cannot refresh", async () => {
      const owner = httpClient(platform.baseUrl, platform.ownerKey);
      const key = await owner.post<{ id: string; token: string }>("/v1/api-keys", {
        name: "approves an agent",
        role: "admin",
      });
      expect(key.status).toBe(201);
      const agent = await connectAgent(new URL(`${platform.baseUrl}/v1/mcp`), {
        apiKey: key.body.token,
        role: "member",
      });
      agents.push(agent);
      const token = agent.provider.saved?.access_token ?? "";
      const gateways = [platform.baseUrl, platform.second];
      // Both gateways now remember the token, each for 5 s from its first verification.
      for (const gateway of gateways) {
        expect((await httpClient(gateway, token).get("/v1/account")).status).toBe(200);
        expect((await sendToolsList(new URL(`${gateway}/v1/mcp`), token)).status).toBe(200);
      }
      const elsewhere = await mcpClient(new URL(`${platform.second}/v1/mcp`), agent.provider);
      expect((await elsewhere.listTools()).tools.length).toBeGreaterThan(10);

      expect((await owner.delete(`/v1/api-keys/${key.body.id}`)).status).toBe(204);
      let statuses: number[] = [];
      do {
        statuses = await Promise.all(
          gateways.map(async (gateway) => (await httpClient(gateway, token).get("/v1/account")).status),
        );
      } while (statuses.some((status) => status !== 401) && Date.now() - agent.authorizedAt < AUTH_CACHE_MS);
      // Refused while every cached verification (all made after authorizedAt) would still have answered.
      expect(Date.now() - agent.authorizedAt).toBeLessThan(AUTH_CACHE_MS);
      expect(statuses).toEqual([401, 401]);
      for (const gateway of gateways) {
        expect((await sendToolsList(new URL(`${gateway}/v1/mcp`), token)).status).toBe(401);
      }

      // The refresh token died with the grant: the client is sent back to the person for consent.
      agent.provider.authorizationUrl = undefined;
      await expect(elsewhere.listTools()).rejects.toThrow();
      expect(agent.provider.authorizationUrl).toBeDefined();
      await elsewhere.close();
    });
  });
});

describe("MCP token lifetimes in embedded mode", () => {
  const target = startedForSuite(() => startEmbedded({ SVC_OAUTH_ACCESS_TOKEN_TTL_MS: "2000" }));

  it("issues access tokens with the lifetime SVC_OAUTH_ACCESS_TOKEN_TTL_MS sets", async () => {
    const agent = await connectAgent(new URL(`${target.baseUrl}/v1/mcp`), {
      apiKey: target.ownerKey,
      role: "viewer",
    });
    try {
      expect(agent.provider.saved?.expires_in).toBe(2);
    } finally {
      await agent.client.close();
    }
  });
});
