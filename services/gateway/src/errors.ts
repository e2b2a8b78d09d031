import {
  DomainError,
  type ErrorBody,
  errorStatus,
  INEXACT_REASON,
  OUT_OF_RANGE_REASON,
  shownNumber,
} from "@svc/contracts";
import type { FastifyError, FastifyReply, FastifyRequest } from "fastify";

/** A body that does not parse as JSON: one issue at the body itself, like every other validation failure. */
export function invalidJsonBody(reason: string): DomainError {
  return new DomainError("validation_failed", `The body is not valid JSON: ${reason}`, {
    issues: [{ path: "body", message: `is not valid JSON: ${reason}`, code: "invalid_json" }],
  });
}

/** A body with bytes that are not UTF-8: refused, never stored with U+FFFD in their place. */
export function invalidUtf8Body(offset: number, format = "JSON"): DomainError {
  const message = `is not valid UTF-8: the byte at offset ${offset} does not begin or continue a character`;
  return new DomainError("validation_failed", `The body ${message}; send ${format} encoded as UTF-8`, {
    issues: [{ path: "body", message, code: "invalid_utf8" }],
  });
}

/** A body with a number that would be stored as another number: refused, never rounded in silence. */
export function inexactNumberBody(number: string, offset: number): DomainError {
  const message = `holds the number ${shownNumber(number)} at byte offset ${offset}, which ${INEXACT_REASON}`;
  return new DomainError("validation_failed", `The body ${message}; send it as a string`, {
    issues: [{ path: "body", message, code: "inexact_number" }],
  });
}

/**
 * A body with a number beyond a double's range (1e400): JSON.parse reads it as Infinity, which would
 * reach storage as null. Refused, naming where it is.
 */
export function numberOutOfRangeBody(path: readonly (string | number)[]): DomainError {
  const where = ["body", ...path].join(".");
  return new DomainError(
    "validation_failed",
    `The body's ${where} ${OUT_OF_RANGE_REASON}; send a smaller number, or the number as a string`,
    { issues: [{ path: where, message: OUT_OF_RANGE_REASON, code: "number_out_of_range" }] },
  );
}

export const unsupportedMediaType = (): DomainError =>
  new DomainError(
    "unsupported_media_type",
    `Unsupported Content-Type; send the body as JSON with "Content-Type: application/json"`,
  );

/** Fastify's own errors for bad requests, in the platform's vocabulary. */
function fromFastify(error: FastifyError, bodyLimit: number): DomainError | undefined {
  switch (error.code) {
    case "FST_ERR_CTP_BODY_TOO_LARGE":
      return new DomainError("payload_too_large", `The body is larger than the limit of ${bodyLimit} bytes`, {
        limit: bodyLimit,
      });
    case "FST_ERR_CTP_INVALID_MEDIA_TYPE":
      return unsupportedMediaType();
    case "FST_ERR_CTP_INVALID_CONTENT_LENGTH":
    case "FST_ERR_CTP_EMPTY_JSON_BODY":
    case "FST_ERR_CTP_INVALID_JSON_BODY":
      return invalidJsonBody(error.message);
  }
  if (error.statusCode === 400 && error.validation === undefined) {
    return new DomainError("validation_failed", error.message, { issues: [] });
  }
  return undefined;
}

export function toDomainError(error: unknown, bodyLimit: number): DomainError | undefined {
  if (error instanceof DomainError) return error;
  if (error instanceof Error && "code" in error) return fromFastify(error as FastifyError, bodyLimit);
  return undefined;
}

/** The one error shape of the API, whatever the status and whichever surface (HTTP or MCP) answers. */
export function errorBodyOf(error: DomainError, requestId: string): ErrorBody {
  const body: ErrorBody = { error: error.message, code: error.code, requestId };
  if (error.details !== undefined) body.details = error.details;
  return body;
}

export function sendError(request: FastifyRequest, reply: FastifyReply, error: DomainError): FastifyReply {
  const body = errorBodyOf(error, request.id);
  if (error.code === "rate_limited") {
    const retryAfter = Number(error.details?.retryAfterSeconds ?? 1);
    reply.header("retry-after", String(Math.max(1, Math.ceil(retryAfter))));
  }
  // Both say when to try again; after outcome_unknown, a write sent again under its Idempotency-Key
  // is applied once, whatever became of the first.
  if (error.code === "service_unavailable" || error.code === "outcome_unknown")
    reply.header("retry-after", "1");
  return reply.status(errorStatus[error.code]).send(body);
}
