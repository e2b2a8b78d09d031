import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client as httpClient } from "../http";
import {
  connectAgent as connectMcpAgent,
  mcpClient,
  parseConsentForm,
  pkcePair,
  postForm,
  sendToolsList,
  submitConsent,
  type TestOAuthProvider,
} from "../mcp-agent";
import { projectForSuite, targets } from "../targets";

interface Agent {
  client: Client;
  provider: TestOAuthProvider;
}

describe.each(targets())("MCP agent connection (%s)", (_name, start) => {
  const suite = projectForSuite(start);
  let base: string;
  let datasetSlug: string;
  let column: string;
  let mcpUrl: URL;
  const agents: Client[] = [];

  beforeAll(async () => {
    base = suite.target.baseUrl;
    mcpUrl = new URL(`${base}/v1/mcp`);
    const dataset = await suite.api.post<{ slug: string }>(`/v1/projects/${suite.project}/datasets`, {
      name: "QA set",
    });
    datasetSlug = dataset.body.slug;
    const path = `/v1/projects/${suite.project}/datasets/${datasetSlug}`;
    column = (await suite.api.post<{ identifier: string }>(`${path}/columns`, { name: "difficulty" })).body
      .identifier;
    const rows = await suite.api.post(`${path}/rows`, {
      rows: [
        { id: "r0", input: { q: "2+2" }, output: "4" },
        { id: "r1", input: { q: "3+3" }, output: "6" },
      ],
    });
    expect(rows.status).toBe(201);
  });
  afterAll(async () => {
    await Promise.allSettled(agents.map((agent) => agent.close()));
  });

  const datasetPath = () => `/v1/projects/${suite.project}/datasets/${datasetSlug}`;
  const rowArgs = (rowId = "r0") => ({ projectSlug: suite.project, datasetSlug, rowId });
  const currentVersion = async () => (await suite.api.get<{ version: number }>(datasetPath())).body.version;

  async function newClient(provider: TestOAuthProvider): Promise<Client> {
    const client = await mcpClient(mcpUrl, provider);
    agents.push(client);
    return client;
  }

  /** What an agent does on first contact: discovery, registration, the person's consent, the code. */
  async function connectAgent(apiKey: string, role: string): Promise<Agent> {
    const agent = await connectMcpAgent(mcpUrl, { apiKey, role });
    agents.push(agent.client);
    const { consent, provider } = agent;
    expect(consent.status).toBe(303);
    expect(consent.location?.origin + (consent.location?.pathname ?? "")).toBe(provider.redirectUrl);
    expect(consent.location?.searchParams.get("state")).toBe(provider.lastState);
    expect(consent.location?.searchParams.get("iss")).toBe(base);
    return agent;
  }

  const call = (agent: Agent, name: string, args: Record<string, unknown>) =>
    agent.client.callTool({ name, arguments: args }) as Promise<CallToolResult>;

  const errorOf = (result: CallToolResult) => {
    expect(result.isError).toBe(true);
    const body = result.structuredContent as { error: string; code: string; requestId: string };
    expect(JSON.parse((result.content[0] as { text: string }).text)).toEqual(body);
    expect(body.error.length).toBeGreaterThan(5);
    expect(body.requestId).toBeTruthy();
    return body;
  };

  it("starts discovery from a bare 401: protected resource, then authorization server metadata", async () => {
    const bare = await sendToolsList(mcpUrl, undefined);
    expect(bare.status).toBe(401);
    expect(bare.headers.get("www-authenticate")).toBe(
      `Bearer resource_metadata="${base}/.well-known/oauth-protected-resource/v1/mcp"`,
    );
    expect(await bare.json()).toMatchObject({ code: "unauthenticated" });

    const resource = await (await fetch(`${base}/.well-known/oauth-protected-resource`)).json();
    expect(resource).toMatchObject({ resource: base, authorization_servers: [base] });
    const mcpResource = await (await fetch(`${base}/.well-known/oauth-protected-resource/v1/mcp`)).json();
    expect(mcpResource).toMatchObject({ resource: `${base}/v1/mcp`, authorization_servers: [base] });
    const server = await (await fetch(`${base}/.well-known/oauth-authorization-server`)).json();
    expect(server).toMatchObject({
      issuer: base,
      authorization_endpoint: `${base}/oauth/authorize`,
      token_endpoint: `${base}/oauth/token`,
      registration_endpoint: `${base}/oauth/register`,
      revocation_endpoint: `${base}/oauth/revoke`,
      code_challenge_methods_supported: ["S256"],
      grant_types_supported: ["authorization_code", "refresh_token"],
    });
  });

  it("invites a person with a link on the platform's own address, as the HTTP API does", async () => {
    const admin = await connectAgent(suite.target.ownerKey, "admin");
    const email = `mcp-${Date.now()}@example.com`;
    const result = await call(admin, "addMember", { email, role: "viewer" });
    expect(result.isError).toBeFalsy();
    const invited = result.structuredContent as { email: string; inviteUrl: string | null };
    expect(invited.email).toBe(email);
    // Without mail set up, the link is the caller's to pass on: it must lead to this platform.
    expect(invited.inviteUrl, String(invited.inviteUrl)).toSatisfy(
      (url: string | null) => url?.startsWith(`${base}/`) === true,
    );
  });

  describe("a connected agent", () => {
    let agent: Agent;
    beforeAll(async () => {
      agent = await connectAgent(suite.target.ownerKey, "member");
    });

    it("registered itself, and asked for the code with PKCE S256 and the resource", async () => {
      expect(agent.provider.client?.client_id).toMatch(/^svc_client_/);
      const url = agent.provider.authorizationUrl;
      expect(url?.searchParams.get("code_challenge_method")).toBe("S256");
      expect(url?.searchParams.get("resource")).toBe(`${base}/v1/mcp`);
      // The consent form posts to an absolute address, so that it works behind a path prefix too.
      if (!url) throw new Error("no authorization URL");
      const page = await fetch(url);
      expect(parseConsentForm(await page.text()).action).toBe(`${base}/oauth/authorize`);
      expect(agent.provider.saved).toMatchObject({
        access_token: expect.stringMatching(/^svc_at_/),
        refresh_token: expect.stringMatching(/^svc_rt_/),
        token_type: expect.stringMatching(/^bearer$/i),
        expires_in: 3600,
      });
    });

    it("lists one tool per operation, with flat input schemas", async () => {
      const { tools } = await agent.client.listTools();
      const names = tools.map((tool) => tool.name);
      expect(names).toEqual(expect.arrayContaining(["listDatasetRows", "updateDatasetRow", "listProjects"]));
      expect(names).not.toContain("createOrganization");
      const update = tools.find((tool) => tool.name === "updateDatasetRow");
      expect(Object.keys(update?.inputSchema.properties ?? {})).toEqual(
        expect.arrayContaining([
          "projectSlug",
          "datasetSlug",
          "rowId",
          "ifMatch",
          "expectedOutput",
          "custom",
        ]),
      );
      expect(update?.inputSchema.required).toEqual(["projectSlug", "datasetSlug", "rowId"]);
      const list = tools.find((tool) => tool.name === "listDatasetRows");
      expect(list?.inputSchema.required).toEqual(["projectSlug", "datasetSlug"]);
      expect(list?.annotations?.readOnlyHint).toBe(true);
      // Each call makes a new version: an agent must not take a repeat for a no-op.
      expect(update?.annotations).toEqual({
        readOnlyHint: false,
        destructiveHint: true,
        idempotentHint: false,
        openWorldHint: false,
      });
    });

    it("refuses a browser page of another origin with 403, whatever its token", async () => {
      const token = agent.provider.saved?.access_token ?? "";
      const send = (origin?: string) => sendToolsList(mcpUrl, token, origin ? { origin } : {});
      const foreign = await send("https://evil.example");
      expect(foreign.status).toBe(403);
      expect(await foreign.json()).toMatchObject({ code: "forbidden" });
      expect((await send(new URL(base).origin)).status).toBe(200);
      expect((await send()).status).toBe(200);
    });

    it("calls listDatasetRows", async () => {
      const result = await call(agent, "listDatasetRows", {
        projectSlug: suite.project,
        datasetSlug,
        limit: 1,
        sortDirection: "asc",
      });
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toMatchObject({
        items: [{ rowId: "r0", input: { q: "2+2" }, output: "4", version: 1 }],
        hasMore: true,
      });
      expect(JSON.parse((result.content[0] as { text: string }).text)).toEqual(result.structuredContent);
    });

    it("calls updateDatasetRow, which creates a dataset version acted by the grant", async () => {
      const before = await currentVersion();
      const result = await call(agent, "updateDatasetRow", {
        ...rowArgs(),
        expectedOutput: { answer: "4" },
        custom: { [column]: "easy" },
      });
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toEqual({ versionId: expect.any(String), version: before + 1 });

      const version = await suite.api.get<{ operation: string; actor: { kind: string; id: string } }>(
        `${datasetPath()}/versions/${before + 1}`,
      );
      expect(version.status).toBe(200);
      expect(version.body).toMatchObject({ operation: "update", actor: { kind: "oauth" } });
      const row = await suite.api.get(`${datasetPath()}/rows/r0`);
      expect(row.body).toMatchObject({ expectedOutput: { answer: "4" }, custom: { [column]: "easy" } });
    });

    it("answers an unknown column with an isError result, and changes nothing", async () => {
      const before = await currentVersion();
      const result = await call(agent, "updateDatasetRow", { ...rowArgs(), custom: { k3vnotacolumn: 1 } });
      const error = errorOf(result);
      expect(error.code).toBe("unknown_column");
      expect(error.error).toContain('"k3vnotacolumn"');
      expect(await currentVersion()).toBe(before);
    });

    it.each([
      ["an unknown argument", { colour: "red", output: 1 }],
      ["no cell to change", {}],
      ["a wrong type for custom", { custom: "x" }],
      ["a row id that breaks the pattern", { rowId: "a b", output: 1 }],
      ["a non-numeric ifMatch", { ifMatch: "soon", output: 1 }],
    ])("refuses %s with validation_failed, and changes nothing", async (_label, args) => {
      const before = await currentVersion();
      const error = errorOf(await call(agent, "updateDatasetRow", { ...rowArgs(), ...args }));
      expect(error.code).toBe("validation_failed");
      expect(await currentVersion()).toBe(before);
    });

    it("refuses a list with a limit out of range, and a missing path argument", async () => {
      expect(
        errorOf(await call(agent, "listDatasetRows", { projectSlug: suite.project, datasetSlug, limit: 0 }))
          .code,
      ).toBe("validation_failed");
      expect(errorOf(await call(agent, "listDatasetRows", { projectSlug: suite.project })).code).toBe(
        "validation_failed",
      );
    });

    it("honours ifMatch like If-Match", async () => {
      const error = errorOf(await call(agent, "updateDatasetRow", { ...rowArgs(), ifMatch: 1, output: "x" }));
      expect(error).toMatchObject({
        code: "version_mismatch",
        details: { currentVersion: expect.any(Number) },
      });
    });

    it("enforces the granted role like the HTTP route: a member may not manage keys", async () => {
      expect(errorOf(await call(agent, "listApiKeys", {})).code).toBe("forbidden");
    });

    it("lets the same access token call the HTTP API, for the same organisation", async () => {
      const token = agent.provider.saved?.access_token ?? "";
      const viaOAuth = await httpClient(base, token).get<{ organization: { id: string }; role: string }>(
        "/v1/account",
      );
      const viaKey = await suite.api.get<{ organization: { id: string } }>("/v1/account");
      expect(viaOAuth.status).toBe(200);
      expect(viaOAuth.body).toMatchObject({
        organization: { id: viaKey.body.organization.id },
        role: "member",
      });
    });
  });

  it("grants a viewer read access only", async () => {
    const viewer = await connectAgent(suite.target.ownerKey, "viewer");
    expect(
      (await call(viewer, "listDatasetRows", { projectSlug: suite.project, datasetSlug })).isError,
    ).toBeFalsy();
    const before = await currentVersion();
    expect(errorOf(await call(viewer, "updateDatasetRow", { ...rowArgs(), output: "no" })).code).toBe(
      "forbidden",
    );
    expect(await currentVersion()).toBe(before);
  });

  it("refreshes an access token that stopped working, and rotates the refresh token", async () => {
    const agent = await connectAgent(suite.target.ownerKey, "member");
    const first = agent.provider.saved;
    if (!first?.refresh_token) throw new Error("no refresh token");
    // As if the access token had expired: the server answers 401 and the client refreshes on its own.
    agent.provider.saved = { ...first, access_token: `svc_at_${"x".repeat(43)}` };
    const client = await newClient(agent.provider);
    expect((await client.listTools()).tools.length).toBeGreaterThan(10);
    const second = agent.provider.saved;
    expect(second?.access_token).toMatch(/^svc_at_/);
    expect(second?.access_token).not.toBe(first.access_token);
    expect(second?.refresh_token).not.toBe(first.refresh_token);
    const result = await client.callTool({
      name: "listDatasetRows",
      arguments: { projectSlug: suite.project, datasetSlug },
    });
    expect(result.isError).toBeFalsy();

    // The old refresh token no longer works; presenting it again ends the whole grant.
    const reused = await postForm(`${base}/oauth/token`, {
      grant_type: "refresh_token",
      refresh_token: first.refresh_token,
      client_id: agent.provider.client?.client_id ?? "",
    });
    expect(reused).toMatchObject({ status: 400, body: { error: "invalid_grant" } });
    const after = await fetch(`${base}/v1/account`, {
      headers: { authorization: `Bearer ${second?.access_token}` },
    });
    expect(after.status).toBe(401);
  });

  it("refuses a revoked token at once, and the client cannot refresh its way back", async () => {
    const agent = await connectAgent(suite.target.ownerKey, "member");
    const tokens = agent.provider.saved;
    expect((await agent.client.listTools()).tools.length).toBeGreaterThan(10);
    const revoked = await postForm(`${base}/oauth/revoke`, {
      token: tokens?.access_token ?? "",
      client_id: agent.provider.client?.client_id ?? "",
    });
    expect(revoked.status).toBe(200);

    const direct = await sendToolsList(mcpUrl, tokens?.access_token ?? "");
    expect(direct.status).toBe(401);
    expect(direct.headers.get("www-authenticate")).toContain('error="invalid_token"');
    agent.provider.authorizationUrl = undefined;
    await expect(agent.client.listTools()).rejects.toThrow();
    // Its refresh token died with the grant, so it is sent back to the person for consent.
    expect(agent.provider.authorizationUrl).toBeDefined();
  });

  describe("bad input", () => {
    let clientId: string;
    const redirectUri = "http://127.0.0.1:33419/cb";
    beforeAll(async () => {
      const registered = await fetch(`${base}/oauth/register`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ redirect_uris: [redirectUri], client_name: "manual client" }),
      });
      expect(registered.status).toBe(201);
      clientId = ((await registered.json()) as { client_id: string }).client_id;
    });

    const authorizeUrl = (params: Record<string, string>) => {
      const url = new URL(`${base}/oauth/authorize`);
      for (const [key, value] of Object.entries({
        client_id: clientId,
        redirect_uri: redirectUri,
        response_type: "code",
        code_challenge_method: "S256",
        state: "s",
        ...params,
      })) {
        url.searchParams.set(key, value);
      }
      return url;
    };

    async function codeFor(challenge: string) {
      const answer = await submitConsent(authorizeUrl({ code_challenge: challenge }), {
        apiKey: suite.target.ownerKey,
        role: "member",
      });
      const code = answer.location?.searchParams.get("code");
      if (!code) throw new Error(`no code: ${answer.status} ${answer.html}`);
      return code;
    }

    it("refuses a registration whose redirect URI is plain http to a public host", async () => {
      const response = await fetch(`${base}/oauth/register`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ redirect_uris: ["http://agent.example.com/cb"] }),
      });
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ error: "invalid_redirect_uri" });
    });

    it("shows an error page, and never redirects, for a redirect URI that was not registered", async () => {
      const { challenge } = pkcePair();
      const response = await fetch(
        authorizeUrl({ code_challenge: challenge, redirect_uri: "http://127.0.0.1:33419/elsewhere" }),
        { redirect: "manual" },
      );
      expect(response.status).toBe(400);
      expect(response.headers.get("location")).toBeNull();
      expect(response.headers.get("content-type")).toContain("text/html");
      expect(await response.text()).toContain("does not match any redirect URI");
    });

    it("sends a request without PKCE S256 back to the client with invalid_request", async () => {
      const response = await fetch(authorizeUrl({ code_challenge_method: "plain", code_challenge: "abc" }), {
        redirect: "manual",
      });
      expect(response.status).toBe(303);
      const location = new URL(response.headers.get("location") ?? "");
      expect(location.searchParams.get("error")).toBe("invalid_request");
      expect(location.searchParams.get("state")).toBe("s");
    });

    it("re-shows the consent page for a wrong key or a role above the key's, and redirects a denial", async () => {
      const { challenge } = pkcePair();
      const wrongKey = await submitConsent(authorizeUrl({ code_challenge: challenge }), {
        apiKey: `svc_${"n".repeat(43)}`,
        role: "viewer",
      });
      expect(wrongKey.status).toBe(401);
      expect(wrongKey.location).toBeUndefined();
      expect(wrongKey.html).toContain("That API key is not valid");
      expect(parseConsentForm(wrongKey.html).fields.client_id).toBe(clientId);

      const memberKey = await suite.api.post<{ token: string }>("/v1/api-keys", {
        name: "curator",
        role: "member",
      });
      const tooHigh = await submitConsent(authorizeUrl({ code_challenge: challenge }), {
        apiKey: memberKey.body.token,
        role: "admin",
      });
      expect(tooHigh.status).toBe(403);
      expect(tooHigh.location).toBeUndefined();
      expect(tooHigh.html).toContain("may not grant the admin role");

      const denied = await submitConsent(authorizeUrl({ code_challenge: challenge }), {
        apiKey: "",
        role: "member",
        decision: "deny",
      });
      expect(denied.status).toBe(303);
      expect(denied.location?.searchParams.get("error")).toBe("access_denied");
      expect(denied.location?.searchParams.get("code")).toBeNull();
    });

    it("refuses a verifier that does not match, then refuses a reused code and revokes its tokens", async () => {
      const { verifier, challenge } = pkcePair();
      const code = await codeFor(challenge);
      const exchange = (codeVerifier: string) =>
        postForm(`${base}/oauth/token`, {
          grant_type: "authorization_code",
          code,
          code_verifier: codeVerifier,
          redirect_uri: redirectUri,
          client_id: clientId,
        });

      expect(await exchange(pkcePair().verifier)).toMatchObject({
        status: 400,
        body: { error: "invalid_grant", error_description: expect.stringContaining("PKCE") },
      });
      const granted = await exchange(verifier);
      expect(granted.status).toBe(200);
      const accessToken = String(granted.body?.access_token);
      const account = () => httpClient(base, accessToken).get("/v1/account");
      expect((await account()).status).toBe(200);

      expect(await exchange(verifier)).toMatchObject({ status: 400, body: { error: "invalid_grant" } });
      expect((await account()).status).toBe(401);
      expect(
        await postForm(`${base}/oauth/token`, {
          grant_type: "refresh_token",
          refresh_token: String(granted.body?.refresh_token),
          client_id: clientId,
        }),
      ).toMatchObject({ status: 400, body: { error: "invalid_grant" } });
    });

    it("refuses a code exchanged with another redirect URI", async () => {
      const { verifier, challenge } = pkcePair();
      const code = await codeFor(challenge);
      const response = await postForm(`${base}/oauth/token`, {
        grant_type: "authorization_code",
        code,
        code_verifier: verifier,
        redirect_uri: "http://127.0.0.1:33419/elsewhere",
        client_id: clientId,
      });
      expect(response).toMatchObject({ status: 400, body: { error: "invalid_grant" } });
    });

    // A real token that expires, and one whose grant ends while gateways cache it: mcp-tokens.test.ts.
    it("refuses an unknown access token with 401 and the challenge", async () => {
      const response = await fetch(mcpUrl, {
        method: "POST",
        headers: { authorization: `Bearer svc_at_${"e".repeat(43)}`, "content-type": "application/json" },
        body: "{}",
      });
      expect(response.status).toBe(401);
      expect(response.headers.get("www-authenticate")).toContain(
        `resource_metadata="${base}/.well-known/oauth-protected-resource/v1/mcp"`,
      );
    });

    it("keeps a token of another organisation out of this one's data", async () => {
      const stranger = await connectAgent(await suite.target.newOrganizationKey(), "owner");
      const before = await currentVersion();
      expect(
        errorOf(await call(stranger, "listDatasetRows", { projectSlug: suite.project, datasetSlug })).code,
      ).toBe("not_found");
      expect(errorOf(await call(stranger, "updateDatasetRow", { ...rowArgs(), output: "mine" })).code).toBe(
        "not_found",
      );
      expect(errorOf(await call(stranger, "getProject", { projectSlug: suite.project })).code).toBe(
        "not_found",
      );
      expect(await currentVersion()).toBe(before);
    });
  });
});
