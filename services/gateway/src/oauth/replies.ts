import { DomainError, errorStatus, internalErrorMessage, oauthErrorOf } from "@svc/contracts";
import type { FastifyReply, FastifyRequest } from "fastify";
import { toDomainError } from "../errors";

/* How the OAuth endpoints answer: protocol errors as RFC 6749 says, pages that no one may frame or cache. */

export function asDomainError(request: FastifyRequest, error: unknown): DomainError {
  if (error instanceof DomainError) return error;
  request.log.error({ err: error, requestId: request.id }, "unexpected OAuth error");
  return new DomainError("internal_error", internalErrorMessage(`request id ${request.id}`));
}

/** RFC 6749 §5.2: `{error, error_description}`, 400 (401 for `invalid_client`), never cached. */
export function sendOAuthError(request: FastifyRequest, reply: FastifyReply, error: unknown) {
  const domain = toDomainError(error, bodyLimitOf(request)) ?? asDomainError(request, error);
  return noStore(reply)
    .status(errorStatus[domain.code])
    .send({ error: oauthCodeOf(domain), error_description: domain.message });
}

function oauthCodeOf(error: DomainError): string {
  const oauth = oauthErrorOf(error);
  if (oauth) return oauth.error;
  switch (error.code) {
    case "validation_failed":
    case "unsupported_media_type":
    case "payload_too_large":
      return "invalid_request";
    case "service_unavailable":
    case "upstream_timeout":
      return "temporarily_unavailable";
    default:
      return "server_error";
  }
}

const bodyLimitOf = (request: FastifyRequest): number =>
  request.server.initialConfig.bodyLimit ?? 1024 * 1024;

export function noStore(reply: FastifyReply): FastifyReply {
  return reply.header("cache-control", "no-store").header("pragma", "no-cache");
}

export function html(reply: FastifyReply, status: number, body: string) {
  return noStore(reply)
    .status(status)
    .header("content-type", "text/html; charset=utf-8")
    .header("x-frame-options", "DENY")
    .header("x-content-type-options", "nosniff")
    .header("referrer-policy", "no-referrer")
    .header(
      "content-security-policy",
      "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'",
    )
    .send(body);
}
