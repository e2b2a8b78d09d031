import { type Bus, callOperation, callSubject } from "@svc/bus";
import {
  type BrowserSession,
  createdSessionSchema,
  createSessionInputSchema,
  DomainError,
  emailSignInBodySchema,
  operations,
  subjects,
  type VerifiedCredential,
} from "@svc/contracts";
import type { FastifyInstance, FastifyRequest } from "fastify";
import {
  anonymousCaller,
  assertOwnOrigin,
  assertSameSiteWrite,
  clearSessionCookie,
  csrfTokenOf,
  type GatewayAuth,
  setSessionCookie,
} from "./auth";
import { type RateLimiter, rateLimitedError } from "./rate-limit";

/**
 * Browser sessions, the backend-for-frontend way (OAuth 2.0 for Browser-Based Apps, §6.1): a person
 * pastes an API key once, `auth` opens a session, and the browser holds only an HttpOnly cookie that
 * JavaScript cannot read. Writes made with the cookie need the session's CSRF token in a header and
 * an `Origin` of this site, so that no other site can make the browser act for the person (auth/).
 */

export interface BrowserSessionDeps {
  bus: Bus;
  auth: GatewayAuth;
  timeoutMs: number;
  rateLimiter: RateLimiter;
  publicUrl: (request: FastifyRequest) => string;
  clientAddress: (request: FastifyRequest) => string;
}

/**
 * `POST /v1/sessions` signs in, `GET /v1/session` says who is signed in, `DELETE /v1/session` signs
 * out, `POST /v1/session/email` mails a sign-in link: the operations of the table marked
 * `browserSession`, served here because they hold the cookie.
 */
export async function sessionRoutes(app: FastifyInstance, deps: BrowserSessionDeps): Promise<void> {
  app.post(operations.createSession.path, async (request, reply) => {
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
        { context: anonymousCaller(request), input: input.data },
        { timeoutMs: deps.timeoutMs },
      ),
    );
    const credential = await deps.auth.verify(request, created.token);
    const session = await describe(deps, request, created.token, credential);
    setSessionCookie(reply, publicUrl, created.token, created.expiresAt);
    reply.header("cache-control", "no-store");
    return reply.status(201).send(session);
  });

  /**
   * Mails a sign-in link to a member's address. The same 202 whatever the address: whether it is a
   * member's is decided, and the mail sent, after this answer. Limited per client and per address.
   */
  app.post(operations.emailSignInLink.path, async (request, reply) => {
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
      { context: anonymousCaller(request), input: { email } },
      { timeoutMs: deps.timeoutMs },
    );
    reply.header("cache-control", "no-store");
    return reply.status(202).send({
      message:
        "If this address belongs to a member, a sign-in link is on its way; it works once, within 15 minutes",
    });
  });

  app.get(operations.getSession.path, async (request, reply) => {
    const token = deps.auth.sessionToken(request);
    const credential = await deps.auth.verify(request, token);
    reply.header("cache-control", "no-store");
    return reply.send(await describe(deps, request, token, credential));
  });

  app.delete(operations.deleteSession.path, async (request, reply) => {
    const publicUrl = deps.publicUrl(request);
    const token = deps.auth.sessionToken(request);
    assertSameSiteWrite(request, token, publicUrl);
    await callSubject(
      deps.bus,
      subjects.sessions.end,
      { context: anonymousCaller(request), input: { token } },
      { timeoutMs: deps.timeoutMs },
    );
    deps.auth.forget(token);
    clearSessionCookie(reply, publicUrl);
    return reply.status(204).send();
  });
}

async function describe(
  deps: BrowserSessionDeps,
  request: FastifyRequest,
  token: string,
  credential: VerifiedCredential,
): Promise<BrowserSession> {
  const context = deps.auth.callerOfCredential(request, credential);
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
