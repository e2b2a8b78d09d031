import { randomUUID } from "node:crypto";
import type { IncomingHttpHeaders } from "node:http";

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The client's `X-Request-Id` when it is a sensible one, else a new id. */
export function requestIdOf(headers: IncomingHttpHeaders): string {
  const given = headers["x-request-id"];
  // A UUID: request ids need only be unique, and this is on every request's path.
  return typeof given === "string" && REQUEST_ID.test(given) ? given : randomUUID();
}
