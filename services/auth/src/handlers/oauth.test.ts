import { createHash, randomBytes } from "node:crypto";
import { callOperation } from "@svc/bus";
import {
  type CredentialRevokedEvent,
  type IssuedAuthorizationCode,
  type OAuthClient,
  operations,
  type Role,
  subjects,
  type TokenResponse,
} from "@svc/contracts";
import { availableBackends } from "@svc/testing";
import { beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { type AuthSuite, authSuite, failureOf, raw } from "../test-support";

const BASE = "https://svc.example.com";
const RESOURCES = [BASE, `${BASE}/v1/mcp`];
const REDIRECT = "http://127.0.0.1:4567/callback";

const oauthFailure = (oauthError: string, message: string | RegExp, redirect = false) => ({
  status: oauthError === "invalid_client" ? 401 : 400,
  code: oauthError === "invalid_client" ? "unauthenticated" : "validation_failed",
  message: typeof message === "string" ? message : expect.stringMatching(message),
  details: { oauthError, redirect },
});

const invalidToken = {
  status: 401,
  code: "unauthenticated",
  message:
    "The access token is not valid; it may have expired or been revoked. Refresh it, or authorize again",
};

const invalidKey = {
  status: 401,
  code: "unauthenticated",
  message: "The API key is not valid; it may have been revoked",
};

function pkce() {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
}

/** An authorization request as an MCP client sends it, for `client` and a PKCE `challenge`. */
const authorizationRequest = (
  client: OAuthClient,
  challenge: string,
  fields: Record<string, unknown> = {},
) => ({
  client_id: client.client_id,
  redirect_uri: REDIRECT,
  response_type: "code",
  code_challenge: challenge,
  code_challenge_method: "S256",
  ...fields,
});

/** What an MCP agent and the person approving it do, against the suite's auth service. */
function agentOf(auth: AuthSuite) {
  const register = async (metadata: Record<string, unknown> = {}) =>
    (await auth.ask(subjects.oauth.registerClient, {
      redirect_uris: [REDIRECT],
      client_name: "Test agent",
      ...metadata,
    })) as OAuthClient;

  async function authorize(options: { role?: Role; apiKey?: string; client?: OAuthClient } = {}) {
    const client = options.client ?? (await register());
    const fixture = await auth.makeOrganization();
    const { verifier, challenge } = pkce();
    const issued = (await auth.ask(subjects.oauth.approveAuthorization, {
      request: authorizationRequest(client, challenge, { state: "xyz", resource: `${BASE}/v1/mcp` }),
      resources: RESOURCES,
      apiKey: options.apiKey ?? fixture.ownerKey.token,
      role: options.role ?? "member",
    })) as IssuedAuthorizationCode;
    return { client, ...fixture, verifier, code: issued.code, issued };
  }

  const exchange = (fields: Record<string, unknown>) =>
    auth.ask(subjects.oauth.token, {
      request: { grant_type: "authorization_code", ...fields },
      resources: RESOURCES,
    }) as Promise<TokenResponse>;

  /** Trades an approved authorization's code for tokens, with its verifier, as its client does. */
  const redeem = (flow: Awaited<ReturnType<typeof authorize>>, fields: Record<string, unknown> = {}) =>
    exchange({
      client_id: flow.client.client_id,
      code: flow.code,
      redirect_uri: REDIRECT,
      code_verifier: flow.verifier,
      ...fields,
    });

  const refresh = (clientId: string, refreshToken: string) =>
    auth.ask(subjects.oauth.token, {
      request: { grant_type: "refresh_token", client_id: clientId, refresh_token: refreshToken },
      resources: RESOURCES,
    }) as Promise<TokenResponse>;

  async function connected(role: Role = "member") {
    const flow = await authorize({ role });
    return { ...flow, tokens: await redeem(flow) };
  }

  return { register, authorize, exchange, redeem, refresh, connected };
}

describe.each(availableBackends())("OAuth for MCP agents (%s)", (backendName) => {
  let now: Date;
  const auth = authSuite(backendName, { clock: () => now });
  const { register, authorize, exchange, redeem, refresh, connected } = agentOf(auth);
  const revoked: CredentialRevokedEvent[] = [];

  beforeAll(() => {
    auth.bus.subscribe(subjects.auth.credentialRevoked, (event) =>
      revoked.push(event as CredentialRevokedEvent),
    );
  });
  beforeEach(() => {
    now = new Date();
  });

  const advance = (ms: number) => {
    now = new Date(now.getTime() + ms);
  };

  describe("registration", () => {
    it("registers a public client with its redirect URIs", async () => {
      const client = await register({ redirect_uris: [REDIRECT, "https://agent.example.com/cb"] });
      expect(client).toEqual({
        client_id: expect.stringMatching(/^svc_client_[A-Za-z0-9_-]{22}$/),
        client_id_issued_at: expect.any(Number),
        client_name: "Test agent",
        redirect_uris: [REDIRECT, "https://agent.example.com/cb"],
        grant_types: ["authorization_code", "refresh_token"],
        response_types: ["code"],
        token_endpoint_auth_method: "none",
      });
    });

    it.each([
      ["plain http to a public host", "http://agent.example.com/cb"],
      ["a custom scheme", "javascript:alert(1)"],
      ["a relative URI", "/callback"],
      ["a fragment", "https://agent.example.com/cb#x"],
    ])("refuses a redirect URI with %s", async (_label, uri) => {
      expect(await failureOf(register({ redirect_uris: [uri] }))).toEqual(
        oauthFailure("invalid_redirect_uri", /^Client metadata is invalid: redirect_uris\.0: /),
      );
    });

    it("refuses a client without redirect URIs, and unsupported grant types", async () => {
      expect(await failureOf(register({ redirect_uris: [] }))).toMatchObject({
        details: { oauthError: "invalid_redirect_uri" },
      });
      expect(await failureOf(register({ grant_types: ["client_credentials"] }))).toMatchObject({
        details: { oauthError: "invalid_client_metadata" },
      });
    });
  });

  describe("the authorization request", () => {
    let client: OAuthClient;
    const { challenge } = pkce();
    beforeAll(async () => {
      client = await register();
    });
    const check = (request: Record<string, unknown>) =>
      auth.ask(subjects.oauth.checkAuthorization, {
        request: authorizationRequest(client, challenge, request),
        resources: RESOURCES,
      });

    it("accepts a well-formed request and names the client", async () => {
      expect(await check({ state: "s1", scope: "mcp" })).toEqual({
        clientId: client.client_id,
        clientName: "Test agent",
        redirectUri: REDIRECT,
        codeChallenge: challenge,
        state: "s1",
        scope: "mcp",
      });
    });

    it("takes the resource in any form RFC 3986 calls equal, and names it as this server does", async () => {
      for (const [sent, named] of [
        [`${BASE}/`, BASE],
        ["HTTPS://SVC.example.com:443", BASE],
        [`${BASE}/v1/mcp`, `${BASE}/v1/mcp`],
        ["https://svc.EXAMPLE.com:443/v1/mcp", `${BASE}/v1/mcp`],
      ]) {
        expect(await check({ resource: sent }), sent).toMatchObject({ resource: named });
      }
      for (const sent of [
        `${BASE}/v1/mcp/`,
        `${BASE}/v1`,
        `${BASE}/#top`,
        "svc.example.com",
        "http://svc.example.com",
      ]) {
        expect(await failureOf(check({ resource: sent })), sent).toEqual(
          oauthFailure("invalid_target", /^resource must be one of/, true),
        );
      }
    });

    it("never redirects for an unknown client or an unregistered redirect URI", async () => {
      expect(await failureOf(check({ client_id: "svc_client_nope" }))).toEqual(
        oauthFailure("invalid_request", /^Unknown client_id/),
      );
      expect(await failureOf(check({ redirect_uri: "http://127.0.0.1:4567/other" }))).toEqual(
        oauthFailure("invalid_request", /^The redirect_uri does not match/),
      );
      expect(await failureOf(check({ redirect_uri: `${REDIRECT}?extra=1` }))).toMatchObject({
        details: { redirect: false },
      });
    });

    it("sends other problems back to the registered redirect URI", async () => {
      expect(await failureOf(check({ response_type: "token" }))).toEqual(
        oauthFailure("unsupported_response_type", "Only response_type=code is supported", true),
      );
      expect(await failureOf(check({ code_challenge_method: "plain" }))).toEqual(
        oauthFailure("invalid_request", /^PKCE is required/, true),
      );
      expect(await failureOf(check({ code_challenge: undefined }))).toEqual(
        oauthFailure("invalid_request", /^PKCE is required/, true),
      );
      expect(await failureOf(check({ code_challenge: "short" }))).toEqual(
        oauthFailure("invalid_request", /^code_challenge must be/, true),
      );
      expect(await failureOf(check({ resource: "https://elsewhere.example.com" }))).toEqual(
        oauthFailure("invalid_target", /^resource must be one of/, true),
      );
    });

    it("refuses an approval with an unknown key, or a role above the key's", async () => {
      const { owner } = await auth.makeOrganization();
      const member = await auth.makeKey(owner, "member");
      const approve = (apiKey: string, role: Role) =>
        auth.ask(subjects.oauth.approveAuthorization, {
          request: authorizationRequest(client, challenge),
          resources: RESOURCES,
          apiKey,
          role,
        });
      expect(await failureOf(approve(`svc_${"x".repeat(43)}`, "viewer"))).toMatchObject({
        status: 401,
        code: "unauthenticated",
      });
      expect(await failureOf(approve(member.key.token, "admin"))).toEqual({
        status: 403,
        code: "forbidden",
        message: "This API key's role (member) may not grant the admin role; choose member, viewer",
        details: { role: "admin", grantable: ["member", "viewer"] },
      });
      expect(
        await auth.db
          .selectFrom("oauth_codes")
          .select("code_hash")
          .where("api_key_id", "=", member.key.id)
          .execute(),
      ).toEqual([]);
    });
  });

  describe("tokens", () => {
    it("exchanges a code for tokens that act for the organisation with the granted role", async () => {
      const flow = await connected("viewer");
      expect(flow.issued).toEqual({
        redirectUri: REDIRECT,
        code: expect.stringMatching(/^svc_ac_/),
        state: "xyz",
      });
      expect(flow.tokens).toEqual({
        access_token: expect.stringMatching(/^svc_at_[A-Za-z0-9_-]{43}$/),
        token_type: "Bearer",
        expires_in: 3600,
        refresh_token: expect.stringMatching(/^svc_rt_[A-Za-z0-9_-]{43}$/),
      });
      const credential = await auth.verify(flow.tokens.access_token);
      expect(credential).toEqual({
        organizationId: flow.organization.id,
        role: "viewer",
        actor: { kind: "oauth", id: expect.stringMatching(/^[a-z0-9]{24}$/) },
        // So that no gateway cache keeps accepting it afterwards.
        expiresAt: new Date(now.getTime() + 3_600_000).toISOString(),
      });
      const account = await callOperation(
        auth.bus,
        operations.getAccount,
        { ...credential, requestId: "r" },
        raw(),
      );
      expect(account.organization.id).toBe(flow.organization.id);
    });

    it("stores codes and tokens only as SHA-256 hashes", async () => {
      const flow = await connected();
      const db = auth.db;
      const dump = JSON.stringify([
        await db.selectFrom("oauth_tokens").selectAll().execute(),
        await db.selectFrom("oauth_codes").selectAll().execute(),
        await db.selectFrom("oauth_grants").selectAll().execute(),
      ]);
      for (const secret of [flow.code, flow.tokens.access_token, flow.tokens.refresh_token]) {
        expect(dump).not.toContain(secret);
        expect(dump).toContain(createHash("sha256").update(secret).digest("hex"));
      }
    });

    it("refuses a verifier that does not match the challenge, and keeps the code for the right one", async () => {
      const flow = await authorize();
      const fields = { client_id: flow.client.client_id, code: flow.code, redirect_uri: REDIRECT };
      expect(await failureOf(exchange({ ...fields, code_verifier: pkce().verifier }))).toEqual(
        oauthFailure("invalid_grant", "code_verifier does not match the code_challenge (PKCE)"),
      );
      expect(await failureOf(exchange({ ...fields, code_verifier: undefined }))).toEqual(
        oauthFailure("invalid_request", "code_verifier is required (PKCE)"),
      );
      expect(await exchange({ ...fields, code_verifier: flow.verifier })).toMatchObject({
        token_type: "Bearer",
      });
    });

    it("exchanges a code for the resource named with a trailing slash, as older MCP clients send it", async () => {
      const flow = await authorize();
      const tokens = await redeem(flow, { resource: "https://svc.example.com:443/v1/mcp" });
      expect(tokens).toMatchObject({ token_type: "Bearer" });
      expect(
        await failureOf(exchange({ client_id: flow.client.client_id, resource: `${BASE}/` })),
      ).toMatchObject({
        details: { oauthError: expect.not.stringMatching(/invalid_target/) },
      });
    });

    it("refuses a redirect URI or a client that differs from the authorization request", async () => {
      const flow = await authorize();
      const other = await register();
      const fields = { client_id: flow.client.client_id, code: flow.code, code_verifier: flow.verifier };
      expect(await failureOf(exchange({ ...fields, redirect_uri: "http://127.0.0.1:4567/other" }))).toEqual(
        oauthFailure("invalid_grant", "redirect_uri does not match the one of the authorization request"),
      );
      expect(
        await failureOf(exchange({ ...fields, redirect_uri: REDIRECT, client_id: other.client_id })),
      ).toEqual(oauthFailure("invalid_grant", "The authorization code is not valid for this client"));
      expect(await failureOf(exchange({ ...fields, redirect_uri: REDIRECT, resource: BASE }))).toEqual(
        oauthFailure("invalid_target", "resource differs from the one of the authorization request"),
      );
      const grants = await auth.db
        .selectFrom("oauth_grants")
        .select("id")
        .where("client_id", "in", [flow.client.client_id, other.client_id])
        .execute();
      expect(grants).toEqual([]);
    });

    it("refuses a reused code and revokes every token issued from it", async () => {
      const flow = await connected();
      const fields = {
        client_id: flow.client.client_id,
        code: flow.code,
        redirect_uri: REDIRECT,
        code_verifier: flow.verifier,
      };
      const grantId = (await auth.verify(flow.tokens.access_token)).actor.id;

      expect(await failureOf(exchange(fields))).toEqual(
        oauthFailure("invalid_grant", /^This authorization code was already used/),
      );
      expect(await failureOf(auth.verify(flow.tokens.access_token))).toEqual(invalidToken);
      expect(await failureOf(refresh(flow.client.client_id, flow.tokens.refresh_token))).toMatchObject({
        details: { oauthError: "invalid_grant" },
      });
      await vi.waitFor(() => expect(revoked).toContainEqual({ actor: { kind: "oauth", id: grantId } }));
    });

    it("refuses an expired code and an expired access token", async () => {
      const flow = await authorize();
      advance(61_000);
      expect(await failureOf(redeem(flow))).toEqual(
        oauthFailure("invalid_grant", /^This authorization code has expired/),
      );

      const live = await connected();
      advance(59 * 60_000);
      expect((await auth.verify(live.tokens.access_token)).role).toBe("member");
      advance(60_001);
      expect(await failureOf(auth.verify(live.tokens.access_token))).toEqual(invalidToken);
      // The refresh token outlives it and brings a fresh access token.
      const renewed = await refresh(live.client.client_id, live.tokens.refresh_token);
      expect((await auth.verify(renewed.access_token)).role).toBe("member");
    });

    it("rotates refresh tokens: the old one stops working, and reusing it revokes the grant", async () => {
      const flow = await connected();
      const rotated = await refresh(flow.client.client_id, flow.tokens.refresh_token);
      expect(rotated.refresh_token).not.toBe(flow.tokens.refresh_token);
      expect(rotated.access_token).not.toBe(flow.tokens.access_token);
      const grantId = (await auth.verify(rotated.access_token)).actor.id;
      expect((await auth.verify(flow.tokens.access_token)).actor.id).toBe(grantId);

      expect(await failureOf(refresh(flow.client.client_id, flow.tokens.refresh_token))).toEqual(
        oauthFailure("invalid_grant", /^This refresh token was already used or revoked/),
      );
      expect(await failureOf(auth.verify(rotated.access_token))).toEqual(invalidToken);
      expect(await failureOf(refresh(flow.client.client_id, rotated.refresh_token))).toMatchObject({
        details: { oauthError: "invalid_grant" },
      });
      await vi.waitFor(() => expect(revoked).toContainEqual({ actor: { kind: "oauth", id: grantId } }));
    });

    it("refuses a refresh token of another client, an expired one, and one used as a bearer credential", async () => {
      const flow = await connected();
      const other = await register();
      expect(await failureOf(refresh(other.client_id, flow.tokens.refresh_token))).toMatchObject({
        details: { oauthError: "invalid_grant" },
      });
      expect(await failureOf(auth.verify(flow.tokens.refresh_token))).toEqual(invalidKey);
      advance(30 * 24 * 60 * 60_000 + 1);
      expect(await failureOf(refresh(flow.client.client_id, flow.tokens.refresh_token))).toEqual(
        oauthFailure("invalid_grant", /^The refresh token is not valid for this client/),
      );
    });

    it("refuses unsupported grant types and missing parameters", async () => {
      const send = (request: Record<string, unknown>) =>
        auth.ask(subjects.oauth.token, { request, resources: RESOURCES });
      expect(await failureOf(send({ grant_type: "password", client_id: "c" }))).toEqual(
        oauthFailure("unsupported_grant_type", "grant_type must be authorization_code or refresh_token"),
      );
      expect(await failureOf(send({ grant_type: "authorization_code" }))).toEqual(
        oauthFailure("invalid_request", "client_id is required"),
      );
    });
  });

  describe("revocation", () => {
    it("revokes the whole grant from either token, and tells the gateways", async () => {
      const flow = await connected();
      const grantId = (await auth.verify(flow.tokens.access_token)).actor.id;
      expect(
        await auth.ask(subjects.oauth.revoke, {
          token: flow.tokens.refresh_token,
          client_id: flow.client.client_id,
        }),
      ).toBeNull();
      expect(await failureOf(auth.verify(flow.tokens.access_token))).toEqual(invalidToken);
      expect(await failureOf(refresh(flow.client.client_id, flow.tokens.refresh_token))).toMatchObject({
        details: { oauthError: "invalid_grant" },
      });
      await vi.waitFor(() => expect(revoked).toContainEqual({ actor: { kind: "oauth", id: grantId } }));
    });

    it("answers an unknown token as a success, and refuses another client's token", async () => {
      expect(await auth.ask(subjects.oauth.revoke, { token: "svc_at_unknown" })).toBeNull();
      const flow = await connected();
      const other = await register();
      expect(
        await failureOf(
          auth.ask(subjects.oauth.revoke, { token: flow.tokens.access_token, client_id: other.client_id }),
        ),
      ).toEqual(oauthFailure("unauthorized_client", "This token was not issued to this client"));
      expect((await auth.verify(flow.tokens.access_token)).role).toBe("member");
    });

    it("ends the grant when the API key that approved it is revoked, and tells the gateways", async () => {
      const { owner } = await auth.makeOrganization();
      const admin = await auth.makeKey(owner, "admin");
      const flow = await authorize({ apiKey: admin.key.token, role: "admin" });
      const tokens = await redeem(flow);
      const credential = await auth.verify(tokens.access_token);
      expect(credential.role).toBe("admin");
      const grantId = credential.actor.id;
      const other = await connected();
      const otherGrantId = (await auth.verify(other.tokens.access_token)).actor.id;
      await callOperation(auth.bus, operations.deleteApiKey, owner, raw({ params: { id: admin.key.id } }));
      expect(await failureOf(auth.verify(tokens.access_token))).toEqual(invalidToken);
      // Gateways cache tokens by grant: without an event per grant they would accept this one a while longer.
      await vi.waitFor(() =>
        expect(revoked).toEqual(
          expect.arrayContaining([
            { actor: { kind: "apiKey", id: admin.key.id } },
            { actor: { kind: "oauth", id: grantId } },
          ]),
        ),
      );
      expect(revoked).not.toContainEqual({ actor: { kind: "oauth", id: otherGrantId } });
      expect((await auth.verify(other.tokens.access_token)).actor.id).toBe(otherGrantId);
      expect(await failureOf(refresh(flow.client.client_id, tokens.refresh_token))).toMatchObject({
        details: { oauthError: "invalid_grant" },
      });
    });
  });
});

describe("OAuth lifetimes from the configuration", () => {
  let now = new Date();
  const auth = authSuite("embedded", {
    clock: () => now,
    oauthLifetimes: { codeMs: 5_000, accessTokenMs: 2_000, refreshTokenMs: 60_000 },
  });
  const { authorize, redeem } = agentOf(auth);

  it("issues codes and access tokens that last as configured, and says so in expires_in", async () => {
    now = new Date();
    const late = await authorize();
    now = new Date(now.getTime() + 5_000);
    expect(await failureOf(redeem(late))).toMatchObject({
      details: { oauthError: "invalid_grant" },
      message: expect.stringMatching(/^This authorization code has expired/),
    });

    const tokens = await redeem(await authorize());
    expect(tokens.expires_in).toBe(2);
    now = new Date(now.getTime() + 1_999);
    expect((await auth.verify(tokens.access_token)).role).toBe("member");
    now = new Date(now.getTime() + 1);
    expect(await failureOf(auth.verify(tokens.access_token))).toEqual(invalidToken);
  });
});
