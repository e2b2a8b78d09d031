import type { FastifyInstance, FastifyRequest } from "fastify";
import { type RateLimiter, rateLimitedError } from "./rate-limit";

/** The unauthenticated endpoints that create something (a client, a token) for whoever asks. */
const THROTTLED = new Set(["/oauth/register", "/oauth/token"]);

/**
 * Limits OAuth registration and token requests per client address: nothing else stops a script from
 * registering clients or trying codes as fast as it can. The refusal keeps the OAuth error shape those
 * endpoints answer with (RFC 6749 §5.2), with the 429 status and `Retry-After` any HTTP client knows.
 */
export function throttleOAuthClients(
  app: FastifyInstance,
  limiter: RateLimiter,
  clientAddress: (request: FastifyRequest) => string,
): void {
  app.addHook("onRequest", async (request, reply) => {
    if (request.method !== "POST" || !THROTTLED.has(request.routeOptions.url ?? "")) return;
    const decision = await limiter.checkClientIp(clientAddress(request));
    if (decision.allowed) return;
    return reply
      .status(429)
      .header("retry-after", String(decision.retryAfterSeconds))
      .header("cache-control", "no-store")
      .header("pragma", "no-cache")
      .send({ error: "temporarily_unavailable", error_description: rateLimitedError(decision).message });
  });
}

/**
 * The client's address: the peer's or, behind the proxy SVC_TRUST_PROXY says is there, the last
 * X-Forwarded-For entry, the one that proxy appended for the peer it saw. Entries further left are
 * whatever the client chose to send, so they never choose the bucket.
 */
export function clientAddressOf(trustProxy: boolean): (request: FastifyRequest) => string {
  return (request) => {
    const peer = request.socket.remoteAddress ?? request.ip;
    if (!trustProxy) return peer;
    const header = request.headers["x-forwarded-for"];
    const last = (Array.isArray(header) ? header.join(",") : (header ?? "")).split(",").at(-1)?.trim();
    return last ? last : peer;
  };
}
