import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Logger } from "@svc/telemetry";
import type { FastifyServerFactory } from "fastify";
import { requestIdOf } from "./request-id";

/** Probes must answer even when the gateway is saturated, or an orchestrator would restart it for it. */
const EXEMPT = new Set(["/healthz", "/readyz"]);
/**
 * A dataset's live changes stay open for as long as their client wants: they are bounded apart (per
 * credential and per gateway, see LiveChanges), and their duration says nothing about a queue.
 */
const EVENTS = /^\/v1\/projects\/[^/?]+\/datasets\/[^/?]+\/events\/?(\?|$)/;
/** Files stream for as long as they take: their duration says nothing about a queue. */
const STREAMS = /\/(imports|export)(\/|\?|$)/;
/** How often the gateway decides whether requests are queueing, as CoDel's interval. */
const INTERVAL_MS = 100;
/** Requests answered in an interval for their shortest time to say anything about a queue. */
const MIN_SAMPLES = 8;
/** Refusals are logged as counts, at most one line this often: a line each would add to the overload. */
const LOG_EVERY_MS = 1_000;

type Refusal = "atCapacity" | "transfers" | "queueing";

export interface LoadSheddingOptions {
  /** Requests worked on at once, file transfers apart; beyond it a request is refused. */
  maxInFlight: number;
  /**
   * File transfers (imports and exports) at once, counted apart from `maxInFlight`: one lasts as long as
   * its file, so counted with the quick requests a few large files would crowd out every edit.
   */
  maxTransfers: number;
  /** Milliseconds a request may wait in a queue (the gateway's own or a service's) before new ones are refused. */
  maxQueueMs: number;
}

/**
 * Bounds the requests the gateway works on, by count and by how long they wait. Beyond `maxInFlight`
 * (or `maxTransfers` for a file import or export), or while requests are queueing longer than
 * `maxQueueMs`, a request is answered 503 with `Retry-After` as soon as its headers are parsed: before
 * the framework makes anything of it, its body is read or a credential checked. Refusing is then the
 * cheapest thing the gateway does, so that a burst far above capacity costs a few microseconds per
 * refused request instead of a queue (and memory) that grows without bound, and the requests taken
 * are answered in time.
 *
 * Queueing is told from a slow request as CoDel tells it: by the *shortest* time any request taken in
 * the last interval spent in the gateway (one slow request leaves it short; a standing queue makes
 * every request wait), and by the event loop's delay, which is the wait of requests not yet parsed.
 * Once queueing is seen, new requests are refused for one interval, then taken again to measure anew.
 */
export class LoadShedder {
  private inFlight = 0;
  private transfers = 0;
  private shortest = Number.POSITIVE_INFINITY;
  private samples = 0;
  private refuseUntil = 0;
  private queueing = 0;
  private lastTick = performance.now();
  private readonly timer: NodeJS.Timeout;
  private readonly refused: Record<Refusal, number> = { atCapacity: 0, transfers: 0, queueing: 0 };
  private refusedSince = performance.now();
  /** A refusal's body up to its request id, as last made, and what it was made for. */
  private bodyHead = { why: "", head: "" };

  constructor(
    private readonly options: LoadSheddingOptions,
    private readonly logger: Logger,
  ) {
    this.timer = setInterval(() => this.tick(), INTERVAL_MS);
    this.timer.unref();
  }

  /** A server whose requests pass this gate before the framework's handler sees them. */
  serverFactory(): FastifyServerFactory {
    return (handler, options) =>
      createServer(options as Parameters<typeof createServer>[0], (request, response) => {
        if (this.admit(request, response)) handler(request, response);
      }) as Server;
  }

  close(): void {
    clearInterval(this.timer);
    this.logRefusals();
  }

  /** Counts the request until its response closes, or answers it 503 at once; true when taken. */
  admit(request: IncomingMessage, response: ServerResponse): boolean {
    const url = request.url ?? "/";
    const queryAt = url.indexOf("?");
    if (EXEMPT.has(queryAt < 0 ? url : url.slice(0, queryAt)) || EVENTS.test(url)) return true;
    const transfer = STREAMS.test(url);
    const why = this.refusal(transfer);
    if (why) {
      this.refused[why]++;
      this.refuse(request, response, why);
      return false;
    }
    // "close" fires once the response is sent or the connection is gone, whichever comes first.
    if (transfer) {
      this.transfers++;
      response.once("close", () => {
        this.transfers--;
      });
      return true;
    }
    this.inFlight++;
    const arrived = performance.now();
    response.once("close", () => {
      this.inFlight--;
      this.shortest = Math.min(this.shortest, performance.now() - arrived);
      this.samples++;
    });
    return true;
  }

  private refusal(transfer: boolean): Refusal | undefined {
    if (transfer ? this.transfers >= this.options.maxTransfers : this.inFlight >= this.options.maxInFlight)
      return transfer ? "transfers" : "atCapacity";
    if (performance.now() < this.refuseUntil) return "queueing";
    return undefined;
  }

  /**
   * The API's error shape (`errorBodyOf`), written without an error object or a serializer: refusing
   * is what the gateway does most when it is saturated. A request id is made of characters that need
   * no escaping in JSON (see `requestIdOf`).
   */
  private refuse(request: IncomingMessage, response: ServerResponse, why: Refusal): void {
    const requestId = requestIdOf(request.headers);
    const waited = Math.round(this.queueing);
    const key = why === "queueing" ? `${why}${waited}` : why;
    if (this.bodyHead.why !== key) {
      const reason =
        why === "atCapacity"
          ? `The gateway is at capacity (${this.options.maxInFlight} requests at once)`
          : why === "transfers"
            ? `The gateway is moving as many files as it takes at once (${this.options.maxTransfers} imports and exports)`
            : `The platform is behind: requests waited ${waited} ms, more than ${this.options.maxQueueMs} ms`;
      const message = `${reason}; retry after the Retry-After delay`;
      this.bodyHead = {
        why: key,
        head: `{"error":${JSON.stringify(message)},"code":"service_unavailable","requestId":"`,
      };
    }
    const body = `${this.bodyHead.head}${requestId}"}`;
    response.writeHead(503, [
      "content-type",
      "application/json; charset=utf-8",
      "content-length",
      String(Buffer.byteLength(body)),
      "retry-after",
      "1",
      "x-request-id",
      requestId,
      "x-content-type-options",
      "nosniff",
    ]);
    response.end(body);
  }

  /** One line for the refusals since the last: how many, and why. */
  private logRefusals(): void {
    const { atCapacity, transfers, queueing } = this.refused;
    const refused = atCapacity + transfers + queueing;
    const now = performance.now();
    if (refused > 0) {
      this.logger.warn(
        { refused, atCapacity, transfers, queueing, ms: Math.round(now - this.refusedSince) },
        "requests refused with 503: the gateway is over its bounds",
      );
    }
    this.refused.atCapacity = 0;
    this.refused.transfers = 0;
    this.refused.queueing = 0;
    this.refusedSince = now;
  }

  private tick(): void {
    // A turn of this timer that comes late is the wait of every request not yet parsed.
    const now = performance.now();
    const loopDelay = now - this.lastTick - INTERVAL_MS;
    this.lastTick = now;
    const wait = Math.max(this.samples >= MIN_SAMPLES ? this.shortest : 0, loopDelay);
    this.shortest = Number.POSITIVE_INFINITY;
    this.samples = 0;
    if (wait > this.options.maxQueueMs) {
      this.queueing = wait;
      this.refuseUntil = now + INTERVAL_MS;
    }
    if (now - this.refusedSince >= LOG_EVERY_MS) this.logRefusals();
  }
}
