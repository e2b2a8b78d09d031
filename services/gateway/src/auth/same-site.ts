import { timingSafeEqual } from "node:crypto";
import { DomainError } from "@svc/contracts";
import type { FastifyReply, FastifyRequest } from "fastify";
import { sendError } from "../errors";
import { csrfTokenOf } from "./session-cookie";

const CSRF_HEADER = "x-csrf-token";

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
export function assertOwnOrigin(
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

/**
 * The streamable HTTP transport of MCP requires it: a request with an `Origin` (one a browser sent)
 * must come from this server's own origin, else 403, so that a page of another site, or one that
 * reached this server through DNS rebinding, cannot drive the endpoint. Agents outside browsers send
 * no Origin. An `onRequest` hook.
 */
export function refuseForeignOrigin(publicUrl: (request: FastifyRequest) => string) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const origin = request.headers.origin;
    if (origin === undefined) return;
    const own = new URL(publicUrl(request)).origin;
    if (originOf(origin) === own) return;
    return sendError(
      request,
      reply,
      new DomainError(
        "forbidden",
        `Requests from the web page origin ${JSON.stringify(origin.slice(0, 200))} may not use the MCP endpoint; only ${own} or clients that send no Origin may`,
      ),
    );
  };
}

/** The serialised origin, so that `HTTPS://Host:443` and `https://host` compare equal; "null" has none. */
function originOf(value: string): string | undefined {
  try {
    return new URL(value).origin;
  } catch {
    return undefined;
  }
}
