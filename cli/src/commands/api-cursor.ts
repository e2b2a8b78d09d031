import { newIdempotencyKey, type PreparedRequest } from "../http/request";
import type { ApiCommand } from "../spec/command-tree";

/**
 * The next page's request: the cursor goes where the operation takes it, in the query or the body.
 * It is another request, so it gets its own Idempotency-Key: the API answers the same key with a
 * different body with 409 idempotency_key_reused (the retries of one page still share one key).
 */
export function withCursor(command: ApiCommand, request: PreparedRequest, cursor: string): PreparedRequest {
  const headers = { ...request.headers };
  if (headers["idempotency-key"] !== undefined) headers["idempotency-key"] = newIdempotencyKey();
  const inBody = command.inputs.some((input) => input.location === "body" && input.name === "cursor");
  if (inBody && request.body !== undefined) {
    return { ...request, headers, body: JSON.stringify({ ...JSON.parse(request.body), cursor }) };
  }
  const url = new URL(request.url);
  url.searchParams.set("cursor", cursor);
  return { ...request, headers, url: url.toString() };
}
