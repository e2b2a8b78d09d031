import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { ACCESS_TOKEN_PREFIX, type CredentialRevokedEvent, REFRESH_TOKEN_PREFIX } from "@svc/contracts";

/** What "now" is: injected so that tests can move time instead of waiting for it. */
export type Clock = () => Date;
export const systemClock: Clock = () => new Date();

/** How long what the authorization server issues stays usable, in milliseconds. */
export interface OAuthLifetimes {
  /** Codes travel by redirect at once; a minute is plenty, and limits what a leaked one is worth. */
  codeMs: number;
  /** Short, so that a leaked token is worth little; the refresh token brings the next one. */
  accessTokenMs: number;
  refreshTokenMs: number;
}

export const defaultOAuthLifetimes: OAuthLifetimes = {
  codeMs: 60_000,
  accessTokenMs: 60 * 60_000,
  refreshTokenMs: 30 * 24 * 60 * 60_000,
};

const secret = (prefix: string): string => `${prefix}${randomBytes(32).toString("base64url")}`;

export const newAccessToken = (): string => secret(ACCESS_TOKEN_PREFIX);
export const newRefreshToken = (): string => secret(REFRESH_TOKEN_PREFIX);
export const newAuthorizationCode = (): string => secret("svc_ac_");
/** Client ids are public; random rather than sequential, so that they say nothing about other clients. */
export const newClientId = (): string => `svc_client_${randomBytes(16).toString("base64url")}`;

/** RFC 7636 §4.1-4.2: a verifier is 43-128 unreserved characters; an S256 challenge is 43 base64url. */
const VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;
export const CODE_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

/** True when the verifier hashes (S256) to the challenge. Compared in constant time. */
export function pkceMatches(verifier: string, challenge: string): boolean {
  if (!VERIFIER.test(verifier)) return false;
  const computed = Buffer.from(createHash("sha256").update(verifier).digest("base64url"));
  const expected = Buffer.from(challenge);
  return computed.length === expected.length && timingSafeEqual(computed, expected);
}

/**
 * The protected resource a client named, as this server names it: compared after RFC 3986 §6.2.2-6.2.3
 * normalisation (scheme and host case, default port, an empty path being "/"), so that
 * `http://host:8080/` names the same resource as `http://host:8080` (RFC 8707 §2 asks for the
 * absolute URI; clients differ on the slash). Undefined when it names none of `resources`.
 */
export function matchResource(requested: string, resources: readonly string[]): string | undefined {
  const normal = normalUri(requested);
  return normal === undefined ? undefined : resources.find((resource) => normalUri(resource) === normal);
}

function normalUri(uri: string): string | undefined {
  if (!URL.canParse(uri)) return undefined;
  const url = new URL(uri);
  // A resource indicator must not have a fragment (RFC 8707 §2); a query is kept as it is.
  if (url.hash !== "") return undefined;
  return url.href;
}

export const addMs = (date: Date, ms: number): Date => new Date(date.getTime() + ms);

/** What gateways hear when a grant ends: the actor of every request made with its tokens. */
export const grantRevoked = (grantId: string): CredentialRevokedEvent => ({
  actor: { kind: "oauth", id: grantId },
});
