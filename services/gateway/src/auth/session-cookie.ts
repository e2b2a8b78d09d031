import { createHmac } from "node:crypto";
import { SESSION_TOKEN_PREFIX } from "@svc/contracts";
import type { FastifyReply, FastifyRequest } from "fastify";

/**
 * The browser session's cookie, the backend-for-frontend way (OAuth 2.0 for Browser-Based Apps,
 * §6.1): the browser holds only an HttpOnly cookie that JavaScript cannot read, and each write made
 * with it carries the session's CSRF token, derived from the session token.
 */

const COOKIE = "svc_session";
/** Behind HTTPS: `Secure`, and the `__Host-` prefix, which browsers accept only without Domain and on `/`. */
const SECURE_COOKIE = "__Host-svc_session";

/** The session's CSRF token: derived from the session token, so any gateway can check it without storage. */
export const csrfTokenOf = (sessionToken: string): string =>
  createHmac("sha256", sessionToken).update("svc csrf token").digest("base64url");

export const isSecure = (publicUrl: string) => publicUrl.startsWith("https:");

/** The session token the request's cookie carries, if any. */
export function sessionTokenOf(request: FastifyRequest, publicUrl: string): string | undefined {
  const name = isSecure(publicUrl) ? SECURE_COOKIE : COOKIE;
  const token = cookiesOf(request.headers.cookie).get(name);
  return token?.startsWith(SESSION_TOKEN_PREFIX) ? token : undefined;
}

/** `a=1; b=2` as a map; values are taken as they are (session tokens are base64url, never quoted). */
export function cookiesOf(header: string | undefined): Map<string, string> {
  const cookies = new Map<string, string>();
  for (const part of header?.split(";") ?? []) {
    const at = part.indexOf("=");
    if (at > 0) cookies.set(part.slice(0, at).trim(), part.slice(at + 1).trim());
  }
  return cookies;
}

export function setSessionCookie(
  reply: FastifyReply,
  publicUrl: string,
  token: string,
  expiresAt: string,
): void {
  reply.header("set-cookie", openSessionCookie(publicUrl, token, expiresAt));
}

/** The `Set-Cookie` value that hands a new session to the browser, until the session's own end. */
export function openSessionCookie(publicUrl: string, token: string, expiresAt: string): string {
  const maxAge = Math.max(0, Math.floor((Date.parse(expiresAt) - Date.now()) / 1000));
  return sessionCookie(publicUrl, token, maxAge);
}

export function clearSessionCookie(reply: FastifyReply, publicUrl: string): void {
  reply.header("set-cookie", sessionCookie(publicUrl, "", 0));
}

function sessionCookie(publicUrl: string, value: string, maxAgeSeconds: number): string {
  const secure = isSecure(publicUrl);
  const name = secure ? SECURE_COOKIE : COOKIE;
  return `${name}=${value}; Path=/; Max-Age=${maxAgeSeconds}; HttpOnly; SameSite=Lax${secure ? "; Secure" : ""}`;
}
