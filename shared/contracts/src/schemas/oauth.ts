import { z } from "zod";
import { DomainError } from "../errors";
import { roleSchema } from "./common";

/**
 * Internal schemas of the OAuth 2.1 authorization server that lets MCP agents in. The gateway speaks
 * HTTP (RFC 6749, 7591, 7009, 8414, 9728) and forwards each request over the bus; `auth` owns the
 * clients, codes, grants and tokens. Field names are the protocol's own (snake_case), so that what
 * crosses the bus is what the client sent.
 */

export const ACCESS_TOKEN_PREFIX = "svc_at_";
export const REFRESH_TOKEN_PREFIX = "svc_rt_";

/** Error codes of RFC 6749 §5.2, RFC 7591 §3.2.2 and RFC 8707 §2 that this server answers with. */
export const oauthErrorCodes = [
  "invalid_request",
  "invalid_client",
  "invalid_grant",
  "unauthorized_client",
  "unsupported_grant_type",
  "unsupported_response_type",
  "invalid_scope",
  "invalid_target",
  "access_denied",
  "invalid_redirect_uri",
  "invalid_client_metadata",
] as const;
export type OAuthErrorCode = (typeof oauthErrorCodes)[number];
const oauthErrorCodeSchema = z.enum(oauthErrorCodes);

export interface OAuthErrorOptions {
  /**
   * True when the client and redirect URI are known good, so that the error may be sent back to the
   * client by redirect (RFC 6749 §4.1.2.1); false when it must be shown to the person instead.
   */
  redirect?: boolean;
}

/**
 * An OAuth error as a domain error, so that it travels over the bus like any other: `invalid_client`
 * is 401, everything else 400. The gateway turns it into `{error, error_description}`.
 */
export function oauthError(error: OAuthErrorCode, description: string, options: OAuthErrorOptions = {}) {
  return new DomainError(error === "invalid_client" ? "unauthenticated" : "validation_failed", description, {
    oauthError: error,
    redirect: options.redirect ?? false,
  });
}

/** The OAuth error code a domain error carries, if it is one. */
export function oauthErrorOf(error: DomainError): { error: OAuthErrorCode; redirect: boolean } | undefined {
  const code = oauthErrorCodeSchema.safeParse(error.details?.oauthError);
  if (!code.success) return undefined;
  return { error: code.data, redirect: error.details?.redirect === true };
}

const LOOPBACK_HOST = /^(localhost|127\.\d{1,3}\.\d{1,3}\.\d{1,3}|\[::1\])$/;

/** Why a redirect URI may not be registered, or undefined when it may: https, or http on loopback only. */
export function redirectUriProblem(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return "must be an absolute URL";
  }
  if (url.hash !== "" || value.includes("#")) return "must not have a fragment";
  if (url.username !== "" || url.password !== "") return "must not carry a user name or password";
  if (url.protocol === "https:") return undefined;
  if (url.protocol === "http:" && LOOPBACK_HOST.test(url.hostname)) return undefined;
  return "must use https, or http on a loopback host (localhost, 127.0.0.1 or [::1])";
}

const redirectUriSchema = z
  .string()
  .max(2000)
  .superRefine((value, ctx) => {
    const problem = redirectUriProblem(value);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  });

/** RFC 7591 client metadata as a client sends it; fields this server does not use are kept, not refused. */
export const oauthClientMetadataSchema = z.looseObject({
  redirect_uris: z.array(redirectUriSchema).min(1, "must list at least one redirect URI").max(10),
  client_name: z.string().trim().min(1).max(200).optional(),
  client_uri: z.string().max(2000).optional(),
  scope: z.string().max(1000).optional(),
  token_endpoint_auth_method: z.string().max(100).optional(),
  grant_types: z
    .array(
      z.enum(["authorization_code", "refresh_token"], {
        error: "must be authorization_code or refresh_token",
      }),
    )
    .max(2)
    .optional(),
  response_types: z
    .array(z.enum(["code"], { error: "must be code" }))
    .max(1)
    .optional(),
});
export type OAuthClientMetadata = z.infer<typeof oauthClientMetadataSchema>;

/** RFC 7591 §3.2.1: the registered client. Every client is public: PKCE protects its codes. */
export const oauthClientSchema = z.object({
  client_id: z.string(),
  client_id_issued_at: z.number().int(),
  client_name: z.string().optional(),
  client_uri: z.string().optional(),
  scope: z.string().optional(),
  redirect_uris: z.array(z.string()),
  grant_types: z.array(z.string()),
  response_types: z.array(z.string()),
  token_endpoint_auth_method: z.literal("none"),
});
export type OAuthClient = z.infer<typeof oauthClientSchema>;

/** The resource indicators (RFC 8707) the gateway answers for; sent along because only it knows its address. */
const resourcesSchema = z.array(z.string()).min(1).max(4);

/**
 * The parameters of an authorization request (RFC 6749 §4.1.1 with PKCE, RFC 7636), unchecked: `auth`
 * checks them so that it can tell which problems may be sent back to the client.
 */
export const authorizationRequestSchema = z.object({
  client_id: z.string().max(200).optional(),
  redirect_uri: z.string().max(2000).optional(),
  response_type: z.string().max(100).optional(),
  code_challenge: z.string().max(200).optional(),
  code_challenge_method: z.string().max(20).optional(),
  state: z.string().max(2000).optional(),
  scope: z.string().max(1000).optional(),
  resource: z.string().max(2000).optional(),
});
export type AuthorizationRequest = z.infer<typeof authorizationRequestSchema>;

export const checkAuthorizationInputSchema = z.object({
  request: authorizationRequestSchema,
  resources: resourcesSchema,
});
export type CheckAuthorizationInput = z.infer<typeof checkAuthorizationInputSchema>;

/** A request that passed every check: what the consent page shows and posts back. */
export const checkedAuthorizationSchema = z.object({
  clientId: z.string(),
  clientName: z.string().nullable(),
  redirectUri: z.string(),
  codeChallenge: z.string(),
  state: z.string().optional(),
  scope: z.string().optional(),
  resource: z.string().optional(),
});
export type CheckedAuthorization = z.infer<typeof checkedAuthorizationSchema>;

/** The person's answer on the consent page: an API key of the organisation, and the role to grant. */
export const approveAuthorizationInputSchema = checkAuthorizationInputSchema.extend({
  apiKey: z.string().max(512),
  role: roleSchema,
});
export type ApproveAuthorizationInput = z.infer<typeof approveAuthorizationInputSchema>;

export const issuedAuthorizationCodeSchema = z.object({
  redirectUri: z.string(),
  code: z.string(),
  state: z.string().optional(),
});
export type IssuedAuthorizationCode = z.infer<typeof issuedAuthorizationCodeSchema>;

/** A token request (RFC 6749 §4.1.3 and §6), as form fields. */
export const tokenRequestSchema = z.object({
  grant_type: z.string().max(100).optional(),
  code: z.string().max(512).optional(),
  redirect_uri: z.string().max(2000).optional(),
  code_verifier: z.string().max(200).optional(),
  refresh_token: z.string().max(512).optional(),
  client_id: z.string().max(200).optional(),
  scope: z.string().max(1000).optional(),
  resource: z.string().max(2000).optional(),
});
export type TokenRequest = z.infer<typeof tokenRequestSchema>;

export const tokenInputSchema = z.object({ request: tokenRequestSchema, resources: resourcesSchema });
export type TokenInput = z.infer<typeof tokenInputSchema>;

/** RFC 6749 §5.1. */
export const tokenResponseSchema = z.object({
  access_token: z.string(),
  token_type: z.literal("Bearer"),
  expires_in: z.number().int(),
  refresh_token: z.string(),
  scope: z.string().optional(),
});
export type TokenResponse = z.infer<typeof tokenResponseSchema>;

/** RFC 7009 §2.1. */
export const revokeTokenInputSchema = z.object({
  token: z.string().max(512).optional(),
  token_type_hint: z.string().max(100).optional(),
  client_id: z.string().max(200).optional(),
});
export type RevokeTokenInput = z.infer<typeof revokeTokenInputSchema>;
