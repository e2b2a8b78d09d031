import {
  DomainError,
  type Operation,
  type RequestContext,
  SESSION_TOKEN_PREFIX,
  type VerifiedCredential,
} from "@svc/contracts";
import type { FastifyRequest } from "fastify";
import type { CredentialCache } from "./credential-cache";
import { assertSameSiteWrite } from "./same-site";
import { sessionTokenOf } from "./session-cookie";

export interface AuthDeps {
  credentials: CredentialCache;
  /** The address clients reach the gateway at: the origin a session's writes must come from. */
  publicUrl: (request: FastifyRequest) => string;
  /** Checks the operator token; undefined when operator routes are disabled. */
  isOperator: ((token: string) => boolean) | undefined;
}

/** What a request presents to be let in, read before anything is asked of `auth`. */
export type Presented =
  | { kind: "operator"; token: string }
  /** An API key or an OAuth access token as the bearer token, or the web application's session cookie. */
  | { kind: "credential"; token: string };

const BEARER = /^Bearer\s+([\x21-\x7e]{1,512})\s*$/i;

/**
 * The one way into the gateway: every surface (the operation routes, uploads, live changes, MCP,
 * the session routes) reads a request's credential and builds its caller here.
 */
export class GatewayAuth {
  constructor(private readonly deps: AuthDeps) {}

  get operatorRoutes(): boolean {
    return this.deps.isOperator !== undefined;
  }

  /**
   * The credential a route of this access takes: the operator token for operator routes; else the
   * bearer credential when there is one, or the session cookie, whose writes must carry the session's
   * CSRF token from this site. Synchronous, so that a request without one is refused at once.
   */
  presented(request: FastifyRequest, access: Operation["access"]): Presented {
    if (access === "operator") return { kind: "operator", token: bearerToken(request) };
    if (request.headers.authorization === undefined) {
      const publicUrl = this.deps.publicUrl(request);
      const sessionToken = sessionTokenOf(request, publicUrl);
      if (sessionToken !== undefined) {
        assertSameSiteWrite(request, sessionToken, publicUrl);
        return { kind: "credential", token: sessionToken };
      }
    }
    return { kind: "credential", token: bearerToken(request) };
  }

  /** The session the cookie names, for the session routes; 401 without one. */
  sessionToken(request: FastifyRequest): string {
    const token = sessionTokenOf(request, this.deps.publicUrl(request));
    if (token === undefined) {
      throw new DomainError("unauthenticated", "You are not signed in; sign in with an API key");
    }
    return token;
  }

  /** Who calls: the operator, or whoever `auth` says the credential is (asked once a second at most). */
  async callerOf(request: FastifyRequest, presented: Presented): Promise<RequestContext> {
    if (presented.kind === "operator") {
      if (!this.deps.isOperator?.(presented.token))
        throw new DomainError("unauthenticated", "This route needs the operator token");
      return {
        requestId: request.id,
        organizationId: null,
        role: null,
        actor: null,
        origin: this.deps.publicUrl(request),
      };
    }
    return this.callerOfCredential(request, await this.verify(request, presented.token));
  }

  verify(request: FastifyRequest, token: string): Promise<VerifiedCredential> {
    return this.deps.credentials.verify(token, request.id);
  }

  /** Forgets a credential this gateway has just ended (a sign-out), without waiting for the event. */
  forget(token: string): void {
    this.deps.credentials.forget(token);
  }

  callerOfCredential(request: FastifyRequest, credential: VerifiedCredential): RequestContext {
    // A literal of one shape, not spreads: spreading a base object into the context made V8 create new
    // hidden classes for every request, which live in the old generation until a full collection.
    const context: RequestContext = {
      requestId: request.id,
      organizationId: credential.organizationId,
      role: credential.role,
      actor: credential.actor,
      origin: this.deps.publicUrl(request),
    };
    if (credential.sessionId !== undefined) context.sessionId = credential.sessionId;
    return context;
  }
}

/** The bearer token of the Authorization header; a session token is refused there. */
export function bearerToken(request: FastifyRequest): string {
  const header = request.headers.authorization;
  if (!header) {
    throw new DomainError("unauthenticated", 'Missing API key: send it as "Authorization: Bearer <key>"');
  }
  const match = BEARER.exec(header);
  if (!match?.[1]) {
    throw new DomainError("unauthenticated", 'Malformed Authorization header: expected "Bearer <key>"');
  }
  // A session token lives in the browser's HttpOnly cookie, where its writes are checked for CSRF.
  if (match[1].startsWith(SESSION_TOKEN_PREFIX)) {
    throw new DomainError(
      "unauthenticated",
      "A session token works only as the web application's cookie; send an API key as the bearer token",
    );
  }
  return match[1];
}

/** The caller of what anyone may ask (signing in, OAuth): no organisation, role or actor. */
export const anonymousCaller = (request: FastifyRequest): RequestContext => ({
  requestId: request.id,
  organizationId: null,
  role: null,
  actor: null,
});
