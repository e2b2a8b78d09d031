import { createHmac } from "node:crypto";
import type { CookieSerializeOptions } from "@fastify/cookie";
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

const isSecure = (publicUrl: string) => publicUrl.startsWith("https:");

/** The session token the request's cookie carries, if any. */
export function sessionTokenOf(request: FastifyRequest, publicUrl: string): string | undefined {
  const token = request.cookies[sessionCookieName(publicUrl)];
  return token?.startsWith(SESSION_TOKEN_PREFIX) ? token : undefined;
}

/** Hands a new session to the browser, until the session's own end. */
export function setSessionCookie(
  reply: FastifyReply,
  publicUrl: string,
  token: string,
  expiresAt: string,
): void {
  const maxAge = Math.max(0, Math.floor((Date.parse(expiresAt) - Date.now()) / 1000));
  reply.setCookie(sessionCookieName(publicUrl), token, browserCookie(publicUrl, maxAge));
}

export function clearSessionCookie(reply: FastifyReply, publicUrl: string): void {
  reply.setCookie(sessionCookieName(publicUrl), "", browserCookie(publicUrl, 0));
}

const sessionCookieName = (publicUrl: string) => (isSecure(publicUrl) ? SECURE_COOKIE : COOKIE);

/**
 * The attributes of every cookie the gateway sets: on the whole site, out of JavaScript's reach, sent
 * by top-level navigations from other sites but by none of their requests, and `Secure` behind HTTPS.
 * A cleared cookie is `Max-Age=0`, with no `Expires`.
 */
export const browserCookie = (publicUrl: string, maxAge: number): CookieSerializeOptions => ({
  path: "/",
  maxAge,
  httpOnly: true,
  sameSite: "lax",
  secure: isSecure(publicUrl),
});
