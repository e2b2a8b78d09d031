import { createHmac, timingSafeEqual } from "node:crypto";
import { type Bus, callOperation, callSubject } from "@svc/bus";
import {
  type BrowserSession,
  createdSessionSchema,
  createSessionInputSchema,
  DomainError,
  emailSignInBodySchema,
  operations,
  type RequestContext,
  SESSION_TOKEN_PREFIX,
  subjects,
  type VerifiedCredential,
} from "@svc/contracts";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { CredentialCache } from "./credential-cache";
import { type RateLimiter, rateLimitedError } from "./rate-limit";

/**
 * Browser sessions, the backend-for-frontend way (OAuth 2.0 for Browser-Based Apps, §6.1): a person
 * pastes an API key once, `auth` opens a session, and the browser holds only an HttpOnly cookie that
 * JavaScript cannot read. Writes made with the cookie need the session's CSRF token in a header and
 * an `Origin` of this site, so that no other site can make the browser act for the person.
 */

const COOKIE = "svc_session";
/** Behind HTTPS: `Secure`, and the `__Host-` prefix, which browsers accept only without Domain and on `/`. */
const SECURE_COOKIE = "__Host-svc_session";
export const CSRF_HEADER = "x-csrf-token";

export interface BrowserSessionDeps {
  bus: Bus;
  credentials: CredentialCache;
  timeoutMs: number;
  rateLimiter: RateLimiter;
  publicUrl: (request: FastifyRequest) => string;
  clientAddress: (request: FastifyRequest) => string;
}

/** The session's CSRF token: derived from the session token, so any gateway can check it without storage. */
export const csrfTokenOf = (sessionToken: string): string =>
  createHmac("sha256", sessionToken).update("svc csrf token").digest("base64url");

const isSecure = (publicUrl: string) => publicUrl.startsWith("https:");

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

function setSessionCookie(reply: FastifyReply, publicUrl: string, token: string, expiresAt: string): void {
  reply.header("set-cookie", openSessionCookie(publicUrl, token, expiresAt));
}

/** The `Set-Cookie` value that hands a new session to the browser, until the session's own end. */
export function openSessionCookie(publicUrl: string, token: string, expiresAt: string): string {
  const maxAge = Math.max(0, Math.floor((Date.parse(expiresAt) - Date.now()) / 1000));
  return sessionCookie(publicUrl, token, maxAge);
}

function clearSessionCookie(reply: FastifyReply, publicUrl: string): void {
  reply.header("set-cookie", sessionCookie(publicUrl, "", 0));
}

function sessionCookie(publicUrl: string, value: string, maxAgeSeconds: number): string {
  const secure = isSecure(publicUrl);
  const name = secure ? SECURE_COOKIE : COOKIE;
  return `${name}=${value}; Path=/; Max-Age=${maxAgeSeconds}; HttpOnly; SameSite=Lax${secure ? "; Secure" : ""}`;
}

/**
 * A write made with the session cookie must prove it comes from the web application: the CSRF token,
 * which only a page of this origin can have read, and the browser's `Origin`, which a page cannot set.
 */
export function assertSameSiteWrite(request: FastifyRequest, sessionToken: string, publicUrl: string): void {
  if (request.method === "GET" || request.method === "HEAD") return;
  assertOwnOrigin(request, publicUrl, { required: true });
  const given = request.headers[CSRF_HEADER];
  const expectedToken = Buffer.from(csrfTokenOf(sessionToken));
  const givenToken = Buffer.from(typeof given === "string" ? given : "");
  if (givenToken.length !== expectedToken.length || !timingSafeEqual(givenToken, expectedToken)) {
    throw new DomainError(
      "forbidden",
      "A write made with a session cookie needs the session's X-CSRF-Token header; reload the page to get it again",
      { reason: "csrf" },
    );
  }
}

/** The browser's `Origin` must be this site's; `required` when the request rides on the cookie. */
function assertOwnOrigin(
  request: FastifyRequest,
  publicUrl: string,
  { required }: { required: boolean },
): void {
  const origin = request.headers.origin;
  if (origin === undefined && !required) return;
  const expected = new URL(publicUrl).origin;
  if (origin !== expected) {
    throw new DomainError(
      "forbidden",
      origin === undefined
        ? `A write made with a session cookie needs the browser's Origin header (${expected}); programs should send an API key instead`
        : `This request came from ${origin}, not from ${expected}; a session works only from its own site`,
      { reason: "origin" },
    );
  }
}

/** `POST /v1/sessions` signs in, `GET /v1/session` says who is signed in, `DELETE /v1/session` signs out. */
export function registerBrowserSessions(app: FastifyInstance, deps: BrowserSessionDeps): void {
  app.post("/v1/sessions", async (request, reply) => {
    const decision = await deps.rateLimiter.checkClientIp(deps.clientAddress(request));
    if (!decision.allowed) throw rateLimitedError(decision);
    const publicUrl = deps.publicUrl(request);
    // Login CSRF: another site must not sign the person's browser in as someone else.
    assertOwnOrigin(request, publicUrl, { required: false });
    const input = createSessionInputSchema.safeParse(request.body ?? {});
    if (!input.success) {
      throw new DomainError(
        "validation_failed",
        'Send {"apiKey": "svc_…"} (an API key of your organisation) or {"signInCode": "…"} (from a sign-in link)',
        { issues: [{ path: "body", message: "must be {apiKey} or {signInCode}", code: "invalid_union" }] },
      );
    }
    const created = createdSessionSchema.parse(
      await callSubject(
        deps.bus,
        subjects.sessions.create,
        { context: anonymous(request), input: input.data },
        { timeoutMs: deps.timeoutMs },
      ),
    );
    const credential = await deps.credentials.verify(created.token, request.id);
    const session = await describe(deps, request, created.token, credential);
    setSessionCookie(reply, publicUrl, created.token, created.expiresAt);
    reply.header("cache-control", "no-store");
    return reply.status(201).send(session);
  });

  /**
   * Mails a sign-in link to a member's address. The same 202 whatever the address: whether it is a
   * member's is decided, and the mail sent, after this answer. Limited per client and per address.
   */
  app.post("/v1/session/email", async (request, reply) => {
    const input = emailSignInBodySchema.safeParse(request.body ?? {});
    if (!input.success) {
      throw new DomainError(
        "validation_failed",
        'Send {"email": "you@example.com"}, the address you were invited with',
        {
          issues: input.error.issues.map((issue) => ({
            path: ["body", ...issue.path].join("."),
            message: issue.message,
            code: issue.code,
          })),
        },
      );
    }
    const { email } = input.data;
    const decision = await deps.rateLimiter.checkEmailSignIn(deps.clientAddress(request), email);
    if (!decision.allowed) throw rateLimitedError(decision);
    await callSubject(
      deps.bus,
      subjects.sessions.emailSignInLink,
      { context: anonymous(request), input: { email } },
      { timeoutMs: deps.timeoutMs },
    );
    reply.header("cache-control", "no-store");
    return reply.status(202).send({
      message:
        "If this address belongs to a member, a sign-in link is on its way; it works once, within 15 minutes",
    });
  });

  app.get("/v1/session", async (request, reply) => {
    const token = requireSessionToken(request, deps.publicUrl(request));
    const credential = await deps.credentials.verify(token, request.id);
    reply.header("cache-control", "no-store");
    return reply.send(await describe(deps, request, token, credential));
  });

  app.delete("/v1/session", async (request, reply) => {
    const publicUrl = deps.publicUrl(request);
    const token = requireSessionToken(request, publicUrl);
    assertSameSiteWrite(request, token, publicUrl);
    await callSubject(
      deps.bus,
      subjects.sessions.end,
      { context: anonymous(request), input: { token } },
      { timeoutMs: deps.timeoutMs },
    );
    deps.credentials.forget(token);
    clearSessionCookie(reply, publicUrl);
    return reply.status(204).send();
  });
}

function requireSessionToken(request: FastifyRequest, publicUrl: string): string {
  const token = sessionTokenOf(request, publicUrl);
  if (token === undefined) {
    throw new DomainError("unauthenticated", "You are not signed in; sign in with an API key");
  }
  return token;
}

async function describe(
  deps: BrowserSessionDeps,
  request: FastifyRequest,
  token: string,
  credential: VerifiedCredential,
): Promise<BrowserSession> {
  const context: RequestContext = {
    requestId: request.id,
    organizationId: credential.organizationId,
    role: credential.role,
    actor: credential.actor,
  };
  if (credential.sessionId !== undefined) context.sessionId = credential.sessionId;
  const account = await callOperation(
    deps.bus,
    operations.getAccount,
    context,
    { params: {}, query: {}, body: undefined, headers: {} },
    { timeoutMs: deps.timeoutMs },
  );
  return {
    organization: account.organization,
    role: account.role,
    user: account.user,
    csrfToken: csrfTokenOf(token),
    expiresAt: credential.expiresAt ?? new Date(Date.now()).toISOString(),
    sessionId: credential.sessionId ?? credential.actor.id,
  };
}

const anonymous = (request: FastifyRequest): RequestContext => ({
  requestId: request.id,
  organizationId: null,
  role: null,
  actor: null,
});
