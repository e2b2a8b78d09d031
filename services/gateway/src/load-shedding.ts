import { DomainError } from "@svc/contracts";
import type { FastifyInstance } from "fastify";
import { sendError } from "./errors";

/** Probes must answer even when the gateway is saturated, or an orchestrator would restart it for it. */
const EXEMPT = new Set(["/healthz", "/readyz"]);

/**
 * Bounds the requests the gateway works on at once. Beyond `maxInFlight`, a request is answered 503
 * with `Retry-After` before its body is read or a credential checked, so that a burst costs a few
 * bytes per refused request instead of a queue (and memory) that grows without bound.
 */
export function shedLoadAbove(app: FastifyInstance, maxInFlight: number): { inFlight(): number } {
  let inFlight = 0;
  app.addHook("onRequest", async (request, reply) => {
    if (EXEMPT.has(request.url.split("?")[0] ?? "")) return;
    if (inFlight >= maxInFlight) {
      return sendError(
        request,
        reply,
        new DomainError(
          "service_unavailable",
          `The gateway is at capacity (${maxInFlight} requests at once); retry after the Retry-After delay`,
        ),
      );
    }
    inFlight++;
    // "close" fires once the response is sent or the connection is gone, whichever comes first.
    reply.raw.once("close", () => {
      inFlight--;
    });
  });
  return { inFlight: () => inFlight };
}
