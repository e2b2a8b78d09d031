import { type Bus, callSubject } from "@svc/bus";
import {
  type AuthorizationRequest,
  authorizationRequestSchema,
  checkedAuthorizationSchema,
  DomainError,
  errorStatus,
  issuedAuthorizationCodeSchema,
  oauthClientSchema,
  oauthError,
  oauthErrorOf,
  revokeTokenInputSchema,
  roleSchema,
  subjects,
  tokenRequestSchema,
  tokenResponseSchema,
} from "@svc/contracts";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { anonymousCaller, MCP_PATH, RESOURCE_METADATA_PATH } from "../auth";
import { throttleOAuthClients } from "../oauth-throttle";
import type { RateLimiter } from "../rate-limit";
import { consentPage, errorPage } from "./consent-page";
import { fields, formFields, pick } from "./form-input";
import { asDomainError, html, noStore, sendOAuthError } from "./replies";

export interface OAuthRouteDeps {
  bus: Bus;
  timeoutMs: number;
  /** The address clients reach this gateway at, without a trailing slash. */
  publicUrl(request: FastifyRequest): string;
  rateLimiter: RateLimiter;
  clientAddress: (request: FastifyRequest) => string;
}

/** The protected resource is the whole API; `<base>/v1/mcp` names the MCP endpoint within it. */
export const resourcesOf = (base: string): string[] => [base, `${base}${MCP_PATH}`];

/**
 * The OAuth 2.1 authorization server as MCP's authorization specification asks for it: metadata (RFC
 * 9728, RFC 8414), dynamic registration (RFC 7591), the code flow with PKCE and a consent page, the token
 * endpoint and revocation (RFC 7009). The gateway only speaks HTTP; `auth` decides everything.
 */
export async function oauthRoutes(app: FastifyInstance, deps: OAuthRouteDeps): Promise<void> {
  throttleOAuthClients(app, deps.rateLimiter, deps.clientAddress);
  app.get(RESOURCE_METADATA_PATH, async (request, reply) =>
    noStore(reply).send(resourceMetadata(deps.publicUrl(request), "")),
  );
  app.get(`${RESOURCE_METADATA_PATH}${MCP_PATH}`, async (request, reply) =>
    noStore(reply).send(resourceMetadata(deps.publicUrl(request), MCP_PATH)),
  );
  app.get("/.well-known/oauth-authorization-server", async (request, reply) =>
    noStore(reply).send(authorizationServerMetadata(deps.publicUrl(request))),
  );

  // Form bodies only here: the API itself takes JSON and nothing else.
  app.register(async (scope) => {
    scope.addContentTypeParser(
      "application/x-www-form-urlencoded",
      { parseAs: "buffer" },
      (_request, body, done) => {
        const fields = formFields(typeof body === "string" ? Buffer.from(body) : body);
        return fields instanceof DomainError ? done(fields) : done(null, fields);
      },
    );
    scope.setErrorHandler((error, request, reply) => sendOAuthError(request, reply, error));

    scope.post("/oauth/register", async (request, reply) => {
      const client = oauthClientSchema.parse(
        await ask(deps, request, subjects.oauth.registerClient, request.body ?? {}),
      );
      return noStore(reply).status(201).send(client);
    });

    scope.get("/oauth/authorize", async (request, reply) => showConsent(deps, request, reply));
    scope.post("/oauth/authorize", async (request, reply) => answerConsent(deps, request, reply));

    scope.post("/oauth/token", async (request, reply) => {
      const input = {
        request: fields(tokenRequestSchema, request.body),
        resources: resourcesOf(deps.publicUrl(request)),
      };
      const tokens = tokenResponseSchema.parse(await ask(deps, request, subjects.oauth.token, input));
      return noStore(reply).send(tokens);
    });

    scope.post("/oauth/revoke", async (request, reply) => {
      await ask(deps, request, subjects.oauth.revoke, fields(revokeTokenInputSchema, request.body));
      return noStore(reply).status(200).send();
    });
  });
}

function resourceMetadata(base: string, path: string) {
  return {
    resource: `${base}${path}`,
    authorization_servers: [base],
    bearer_methods_supported: ["header"],
    resource_name: "svc API",
    resource_documentation: `${base}/v1/openapi.json`,
  };
}

function authorizationServerMetadata(base: string) {
  return {
    issuer: base,
    authorization_endpoint: authorizationEndpoint(base),
    token_endpoint: `${base}/oauth/token`,
    registration_endpoint: `${base}/oauth/register`,
    revocation_endpoint: `${base}/oauth/revoke`,
    response_types_supported: ["code"],
    response_modes_supported: ["query"],
    grant_types_supported: ["authorization_code", "refresh_token"],
    code_challenge_methods_supported: ["S256"],
    token_endpoint_auth_methods_supported: ["none"],
    revocation_endpoint_auth_methods_supported: ["none"],
    authorization_response_iss_parameter_supported: true,
  };
}

const authorizationEndpoint = (base: string): string => `${base}/oauth/authorize`;

async function showConsent(deps: OAuthRouteDeps, request: FastifyRequest, reply: FastifyReply) {
  const authorization = fields(authorizationRequestSchema, request.query);
  try {
    const checked = await check(deps, request, authorization);
    return html(reply, 200, consentPage(checked, { action: authorizationEndpoint(deps.publicUrl(request)) }));
  } catch (error) {
    return refuse(deps, request, reply, authorization, error);
  }
}

async function answerConsent(deps: OAuthRouteDeps, request: FastifyRequest, reply: FastifyReply) {
  const form = (request.body ?? {}) as Record<string, unknown>;
  const authorization = fields(authorizationRequestSchema, pick(form, authorizationRequestSchema));
  const base = deps.publicUrl(request);
  try {
    if (form.decision !== "approve") {
      await check(deps, request, authorization);
      throw oauthError("access_denied", "The person declined to grant access", { redirect: true });
    }
    const role = roleSchema.safeParse(form.role);
    if (!role.success)
      throw new DomainError("forbidden", "Choose the role to grant: owner, admin, member or viewer");
    const input = {
      request: authorization,
      resources: resourcesOf(base),
      apiKey: typeof form.api_key === "string" ? form.api_key.trim() : "",
      role: role.data,
    };
    const issued = issuedAuthorizationCodeSchema.parse(
      await ask(deps, request, subjects.oauth.approveAuthorization, input),
    );
    const target = new URL(issued.redirectUri);
    target.searchParams.set("code", issued.code);
    if (issued.state !== undefined) target.searchParams.set("state", issued.state);
    target.searchParams.set("iss", base);
    return noStore(reply).redirect(target.toString(), 303);
  } catch (error) {
    if (
      error instanceof DomainError &&
      !oauthErrorOf(error) &&
      (error.code === "unauthenticated" || error.code === "forbidden")
    ) {
      // The key or the role was wrong: the person may try again on the same page.
      const checked = await check(deps, request, authorization);
      const role = roleSchema.safeParse(form.role);
      return html(
        reply,
        errorStatus[error.code],
        consentPage(checked, {
          action: authorizationEndpoint(base),
          error: error.message,
          ...(role.success ? { role: role.data } : {}),
        }),
      );
    }
    return refuse(deps, request, reply, authorization, error);
  }
}

/** Sends an error back to the client when its redirect URI is known good, or shows it to the person. */
function refuse(
  deps: OAuthRouteDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  authorization: AuthorizationRequest,
  error: unknown,
) {
  const domain = asDomainError(request, error);
  const oauth = oauthErrorOf(domain);
  if (oauth?.redirect && authorization.redirect_uri) {
    const target = new URL(authorization.redirect_uri);
    target.searchParams.set("error", oauth.error);
    target.searchParams.set("error_description", domain.message);
    if (authorization.state !== undefined) target.searchParams.set("state", authorization.state);
    target.searchParams.set("iss", deps.publicUrl(request));
    return noStore(reply).redirect(target.toString(), 303);
  }
  return html(reply, oauth ? 400 : errorStatus[domain.code], errorPage(domain.message));
}

async function check(deps: OAuthRouteDeps, request: FastifyRequest, authorization: AuthorizationRequest) {
  const input = { request: authorization, resources: resourcesOf(deps.publicUrl(request)) };
  return checkedAuthorizationSchema.parse(await ask(deps, request, subjects.oauth.checkAuthorization, input));
}

function ask(
  deps: OAuthRouteDeps,
  request: FastifyRequest,
  subject: string,
  input: unknown,
): Promise<unknown> {
  return callSubject(
    deps.bus,
    subject,
    { context: anonymousCaller(request), input },
    { timeoutMs: deps.timeoutMs },
  );
}
