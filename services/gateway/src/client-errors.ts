import { randomUUID } from "node:crypto";
import { maxHeaderSize, STATUS_CODES } from "node:http";
import type { Socket } from "node:net";
import { DomainError, errorStatus } from "@svc/contracts";
import type { Logger } from "@svc/telemetry";
import { errorBodyOf } from "./errors";

/**
 * Node's HTTP parser refuses some requests before Fastify sees them (a malformed Content-Length, a byte
 * HTTP does not allow in the request line or a header, headers over 16 KiB), and Fastify then answers in
 * a shape of its own. This answers in the API's shape instead, with a request id of its own: the
 * request's headers were never read. A client that timed out or went away gets no answer.
 */
export function answerClientErrors(logger: Logger) {
  return (error: Error & { code?: string; reason?: unknown }, socket: Socket): void => {
    if (error.code === "ECONNRESET" || error.code === "ERR_HTTP_REQUEST_TIMEOUT" || !socket.writable) {
      socket.destroy();
      return;
    }
    const requestId = randomUUID();
    const refusal = refusalOf(error);
    logger.info({ requestId, code: error.code, status: errorStatus[refusal.code] }, "malformed HTTP request");
    const body = JSON.stringify(errorBodyOf(refusal, requestId));
    const status = errorStatus[refusal.code];
    socket.end(
      [
        `HTTP/1.1 ${status} ${STATUS_CODES[status]}`,
        "content-type: application/json; charset=utf-8",
        `content-length: ${Buffer.byteLength(body)}`,
        `x-request-id: ${requestId}`,
        "x-content-type-options: nosniff",
        "connection: close",
        "",
        body,
      ].join("\r\n"),
      () => socket.destroy(),
    );
  };
}

function refusalOf(error: Error & { code?: string; reason?: unknown }): DomainError {
  if (error.code === "HPE_HEADER_OVERFLOW") {
    // Node's limit on the request line and headers together: 16 KiB unless --max-http-header-size says otherwise.
    return new DomainError(
      "payload_too_large",
      `The request line and headers are larger than the limit of ${maxHeaderSize} bytes; send a shorter URL or fewer, shorter headers`,
      { limit: maxHeaderSize },
    );
  }
  const reason = typeof error.reason === "string" && error.reason !== "" ? error.reason : "malformed request";
  const message = `is not valid HTTP/1.1: ${reason.charAt(0).toLowerCase()}${reason.slice(1)}`;
  return new DomainError("validation_failed", `The request ${message}; check the request line and headers`, {
    issues: [{ path: "request", message, code: "invalid_http" }],
  });
}
