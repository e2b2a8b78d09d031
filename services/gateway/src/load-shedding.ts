import { DomainError } from "@svc/contracts";
import type { FastifyInstance } from "fastify";
import { sendError } from "./errors";

/** Probes must answer even when the gateway is saturated, or an orchestrator would restart it for it. */
const EXEMPT = new Set(["/healthz", "/readyz"]);
/** Files stream for as long as they take: their duration says nothing about a queue. */
const STREAMS = /\/(imports|export)(\/|\?|$)/;
/** How often the gateway decides whether requests are queueing, as CoDel's interval. */
const INTERVAL_MS = 100;
/** Requests answered in an interval for their shortest time to say anything about a queue. */
const MIN_SAMPLES = 8;

export interface LoadSheddingOptions {
  /** Requests worked on at once; beyond it a request is refused. */
  maxInFlight: number;
  /** Milliseconds a request may wait in a queue (the gateway's own or a service's) before new ones are refused. */
  maxQueueMs: number;
}

/**
 * Bounds the requests the gateway works on, by count and by how long they wait. Beyond `maxInFlight`,
 * or while requests are queueing longer than `maxQueueMs`, a request is answered 503 with `Retry-After`
 * before its body is read or a credential checked, so that a burst costs a few bytes per refused request
 * instead of a queue (and memory) that grows without bound, and the requests taken are answered in time.
 *
 * Queueing is told from a slow request as CoDel tells it: by the *shortest* time any request taken in
 * the last interval spent in the gateway (one slow request leaves it short; a standing queue makes
 * every request wait), and by the event loop's delay, which is the wait of requests not yet parsed.
 * Once queueing is seen, new requests are refused for one interval, then taken again to measure anew.
 */
export function shedLoad(app: FastifyInstance, options: LoadSheddingOptions): { inFlight(): number } {
  let inFlight = 0;
  let shortest = Number.POSITIVE_INFINITY;
  let samples = 0;
  let refuseUntil = 0;
  let queueing = 0;
  let lastTick = performance.now();
  const timer = setInterval(() => {
    // A turn of this timer that comes late is the wait of every request not yet parsed.
    const now = performance.now();
    const loopDelay = now - lastTick - INTERVAL_MS;
    lastTick = now;
    const wait = Math.max(samples >= MIN_SAMPLES ? shortest : 0, loopDelay);
    shortest = Number.POSITIVE_INFINITY;
    samples = 0;
    if (wait > options.maxQueueMs) {
      queueing = wait;
      refuseUntil = now + INTERVAL_MS;
    }
  }, INTERVAL_MS);
  timer.unref();
  app.addHook("onClose", async () => {
    clearInterval(timer);
  });

  app.addHook("onRequest", async (request, reply) => {
    const path = request.url.split("?")[0] ?? "";
    if (EXEMPT.has(path)) return;
    if (inFlight >= options.maxInFlight) {
      return refuse(`The gateway is at capacity (${options.maxInFlight} requests at once)`);
    }
    if (performance.now() < refuseUntil) {
      return refuse(
        `The platform is behind: requests waited ${Math.round(queueing)} ms, more than ${options.maxQueueMs} ms`,
      );
    }
    inFlight++;
    const arrived = performance.now();
    const measured = !STREAMS.test(request.url);
    // "close" fires once the response is sent or the connection is gone, whichever comes first.
    reply.raw.once("close", () => {
      inFlight--;
      if (!measured) return;
      shortest = Math.min(shortest, performance.now() - arrived);
      samples++;
    });

    function refuse(why: string) {
      return sendError(
        request,
        reply,
        new DomainError("service_unavailable", `${why}; retry after the Retry-After delay`),
      );
    }
  });
  return { inFlight: () => inFlight };
}
