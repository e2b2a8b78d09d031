import { createHash, randomBytes } from "node:crypto";
import { type OAuthClientProvider, UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from "@modelcontextprotocol/sdk/shared/auth.js";

/**
 * An MCP client's OAuth state, kept in memory as an agent would keep it on disk. "Redirecting" the
 * person records the URL; the test plays the browser.
 */
export class TestOAuthProvider implements OAuthClientProvider {
  authorizationUrl: URL | undefined;
  client: OAuthClientInformationMixed | undefined;
  saved: OAuthTokens | undefined;
  /** The state of the last authorization request, to check that it comes back unchanged. */
  lastState: string | undefined;
  private verifier: string | undefined;

  constructor(readonly redirectUrl = "http://127.0.0.1:33418/callback") {}

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: "e2e agent <script>",
      redirect_uris: [this.redirectUrl],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    };
  }

  state() {
    this.lastState = `st-${randomBytes(8).toString("hex")}&"<`;
    return this.lastState;
  }
  clientInformation() {
    return this.client;
  }
  saveClientInformation(client: OAuthClientInformationMixed) {
    this.client = client;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  invalidateCredentials(scope: "all" | "client" | "tokens" | "verifier" | "discovery") {
    if (scope === "all" || scope === "client") this.client = undefined;
    if (scope === "all" || scope === "tokens") this.saved = undefined;
    if (scope === "all" || scope === "verifier") this.verifier = undefined;
  }
  codeVerifier() {
    if (!this.verifier) throw new Error("no code verifier saved");
    return this.verifier;
  }
}

export interface ConsentForm {
  action: string;
  fields: Record<string, string>;
  html: string;
}

const decodeEntities = (value: string) =>
  value.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)));

/** Reads the consent page as a browser would: the form's action and its hidden fields. */
export function parseConsentForm(html: string): ConsentForm {
  const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1];
  if (!action) throw new Error(`no consent form in the page:\n${html}`);
  const fields: Record<string, string> = {};
  for (const match of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) {
    fields[match[1] ?? ""] = decodeEntities(match[2] ?? "");
  }
  return { action: decodeEntities(action), fields, html };
}

export interface ConsentAnswer {
  status: number;
  location: URL | undefined;
  html: string;
}

/** Opens the authorization URL, then submits the form with the pasted key and the chosen role. */
export async function submitConsent(
  authorizationUrl: URL,
  answer: { apiKey: string; role: string; decision?: "approve" | "deny" },
): Promise<ConsentAnswer> {
  const page = await fetch(authorizationUrl);
  if (page.status !== 200) throw new Error(`consent page: ${page.status} ${await page.text()}`);
  const form = parseConsentForm(await page.text());
  const response = await fetch(new URL(form.action, authorizationUrl), {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      ...form.fields,
      api_key: answer.apiKey,
      role: answer.role,
      decision: answer.decision ?? "approve",
    }),
    redirect: "manual",
  });
  const location = response.headers.get("location");
  return {
    status: response.status,
    location: location ? new URL(location) : undefined,
    html: await response.text(),
  };
}

export function pkcePair() {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
}

/** A form POST to an OAuth endpoint, as clients send them. */
export async function postForm(url: string, fields: Record<string, string>) {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields),
  });
  const text = await response.text();
  return {
    status: response.status,
    body: (text ? JSON.parse(text) : null) as Record<string, unknown> | null,
  };
}

export interface ConnectedAgent {
  client: Client;
  provider: TestOAuthProvider;
  /** The consent page's answer, with the code in its redirect. */
  consent: ConsentAnswer;
  /** `Date.now()` once the tokens were issued and before any gateway had seen the access token. */
  authorizedAt: number;
}

const AGENT_INFO = { name: "e2e-agent", version: "1.0.0" };

/**
 * The parts of an MCP SDK an agent uses: the newest by default; the e2e suite pins older releases
 * too, since agents in the field upgrade late.
 */
export interface McpSdk {
  Client: typeof Client;
  StreamableHTTPClientTransport: typeof StreamableHTTPClientTransport;
  UnauthorizedError: typeof UnauthorizedError;
}
const newestSdk: McpSdk = { Client, StreamableHTTPClientTransport, UnauthorizedError };

/**
 * A tools/list request straight to the MCP endpoint, with `token` as its bearer (none when undefined)
 * and no client to refresh it; `headers` adds to the request's.
 */
export function sendToolsList(
  mcpUrl: URL,
  token: string | undefined,
  headers: Record<string, string> = {},
): Promise<Response> {
  return fetch(mcpUrl, {
    method: "POST",
    headers: {
      ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...headers,
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
  });
}

/** An MCP client on `mcpUrl` whose tokens come from `provider`: it refreshes them on its own. */
export async function mcpClient(
  mcpUrl: URL,
  provider: TestOAuthProvider,
  sdk: McpSdk = newestSdk,
): Promise<Client> {
  const client = new sdk.Client(AGENT_INFO);
  await client.connect(new sdk.StreamableHTTPClientTransport(mcpUrl, { authProvider: provider }));
  return client;
}

/**
 * What an agent does on first contact: the bare 401 starts discovery and registration, the person
 * consents (the test plays the browser), the code is exchanged, and a connected client comes back.
 */
export async function connectAgent(
  mcpUrl: URL,
  answer: { apiKey: string; role: string },
  sdk: McpSdk = newestSdk,
): Promise<ConnectedAgent> {
  const provider = new TestOAuthProvider();
  const first = new sdk.StreamableHTTPClientTransport(mcpUrl, { authProvider: provider });
  const refused = await new sdk.Client(AGENT_INFO).connect(first).then(
    () => undefined,
    (error: unknown) => error,
  );
  if (!(refused instanceof sdk.UnauthorizedError)) {
    throw new Error(`expected the first contact to need authorization, got ${String(refused)}`);
  }
  const authorizationUrl = provider.authorizationUrl;
  if (!authorizationUrl) throw new Error("the client was not sent to the authorization endpoint");
  const consent = await submitConsent(authorizationUrl, answer);
  const code = consent.location?.searchParams.get("code");
  if (!code) throw new Error(`no code in the consent's answer: ${consent.status} ${consent.location}`);
  await first.finishAuth(code);
  const authorizedAt = Date.now();
  return { client: await mcpClient(mcpUrl, provider, sdk), provider, consent, authorizedAt };
}
