import { type DomainErrorData, domainErrorSchema, requestContextSchema } from "@svc/contracts";
import { z } from "zod";

export const busRequestSchema = z.object({
  context: requestContextSchema,
  input: z.unknown(),
});
export type BusRequest = z.infer<typeof busRequestSchema>;

/** A success status other than the operation's own, when a handler chose one (see `answeredWith`). */
export const replyStatusSchema = z.union([z.literal(200), z.literal(201)]);
export type ReplyStatus = z.infer<typeof replyStatusSchema>;

export const busReplySchema = z.discriminatedUnion("ok", [
  z.object({
    ok: z.literal(true),
    data: z.unknown(),
    status: replyStatusSchema.optional(),
    body: z.instanceof(Uint8Array).optional(),
  }),
  z.object({ ok: z.literal(false), error: domainErrorSchema, outcome: z.literal("unknown").optional() }),
]);
/**
 * A service's answer. A success may carry `body`, bytes that travel beside the JSON as they are,
 * never encoded as a JSON string and parsed again (an export's pieces).
 */
export type BusReply =
  | { ok: true; data: unknown; status?: ReplyStatus; body?: Uint8Array }
  | {
      ok: false;
      error: DomainErrorData;
      /**
       * Set by the requesting side only, when the request may have reached a service that acted on it
       * and whose answer never came (a timeout, a connection lost, a service gone silent): whether
       * anything was done is unknown. Any other failure means the request changed nothing.
       */
      outcome?: "unknown";
    };

export type Handler = (request: BusRequest) => Promise<BusReply>;
export type EventHandler = (payload: unknown) => void;

export interface RequestOptions {
  /** Milliseconds before the request fails with `upstream_timeout`. */
  timeoutMs?: number;
  /**
   * Milliseconds the requester waits with no word from the service that took the request (its reply,
   * or the sign of work a service sends while a request takes longer than `WORKING_EVERY_MS`) before
   * it gives that service up for dead: the request ends `wentSilent`, its outcome unknown. Over NATS
   * only: in one process, a handler cannot die without its requester.
   */
  silenceMs?: number;
}

/** How often a service says it still works on a request that has not been answered yet. */
export const WORKING_EVERY_MS = 200;

export interface Subscription {
  unsubscribe(): void;
}

/** A running service as operators see it (`nats micro ls` lists name, version and description). */
export interface ServiceIdentity {
  name: string;
  version: string;
  description: string;
}

export interface Announcement {
  /** The service stops answering pings: it is going away. */
  stop(): Promise<void>;
}

/**
 * Request-reply between the gateway and the services. Implementations: NATS (distributed) and
 * in-process (embedded and tests); both behave the same, including 503 when nobody serves a subject
 * and 504 on timeout.
 */
export interface Bus {
  request(subject: string, request: BusRequest, options?: RequestOptions): Promise<BusReply>;
  /** Serves a subject in a queue group: replicas share the load, each request goes to one of them. */
  serve(subject: string, handler: Handler): Subscription;
  /** Fan-out events: every subscriber gets every event (for example a revoked credential). */
  publish(subject: string, payload: unknown): void;
  subscribe(subject: string, handler: EventHandler): Subscription;
  /**
   * Says that a service runs here, until `stop`: it answers `ping`, and over NATS the services
   * protocol (`$SRV.PING|INFO|STATS`), so that `nats micro ls/info/stats` list and inspect it.
   */
  announce(service: ServiceIdentity): Promise<Announcement>;
  /** Whether some instance of the service answers within `timeoutMs` (`/readyz` asks each service). */
  ping(service: string, timeoutMs: number): Promise<BusReply>;
  /** True while the bus can carry requests. */
  isConnected(): boolean;
  /** Stops taking requests, waits for those in flight, then disconnects. */
  close(): Promise<void>;
}

export const DEFAULT_TIMEOUT_MS = 15_000;

/**
 * A request as it is sent: carrying its deadline, the earlier of the one it had (a service calling
 * another on a client's behalf passes the client's on) and `timeoutMs` from now, and the time left
 * until then, which is how long the requester waits.
 */
export function withDeadline(
  request: BusRequest,
  timeoutMs: number,
): { request: BusRequest; timeoutMs: number } {
  const now = Date.now();
  const deadline = Math.min(request.context.deadline ?? Number.POSITIVE_INFINITY, now + timeoutMs);
  return {
    request: { ...request, context: { ...request.context, deadline } },
    timeoutMs: Math.max(0, deadline - now),
  };
}

/** True once nobody waits for the answer to this request any more. */
export const pastDeadline = (request: BusRequest, now = Date.now()): boolean =>
  request.context?.deadline !== undefined && now >= request.context.deadline;

export const unavailable = (subject: string): BusReply => ({
  ok: false,
  error: {
    code: "service_unavailable",
    message: `No service is answering ${serviceOf(subject)} requests right now; retry shortly`,
  },
});

/** The connection to the bus is down, so the request was not sent: nothing was done. */
export const notSent = (subject: string): BusReply => ({
  ok: false,
  error: {
    code: "service_unavailable",
    message: `The connection to the ${serviceOf(subject)} service is down; retry in a moment`,
  },
});

/**
 * The connection to the bus dropped with the request on its way: whether a service got it and acted
 * on it is unknown (with the same Idempotency-Key, a retried change applies once).
 */
export const connectionLost = (subject: string): BusReply => ({
  ok: false,
  error: {
    code: "service_unavailable",
    message: `The connection to the ${serviceOf(subject)} service was lost; retry in a moment (with the same Idempotency-Key, a change applies once)`,
  },
  outcome: "unknown",
});

export const timedOut = (subject: string, timeoutMs: number): BusReply => ({
  ok: false,
  error: {
    code: "upstream_timeout",
    message: `The ${serviceOf(subject)} service did not answer within ${timeoutMs} ms; retry shortly`,
  },
  outcome: "unknown",
});

/** The service that took the request went silent (see `RequestOptions.silenceMs`): presumably dead. */
export const wentSilent = (subject: string, silenceMs: number): BusReply => ({
  ok: false,
  error: {
    code: "upstream_timeout",
    message: `The ${serviceOf(subject)} service that took the request stopped answering for ${silenceMs} ms; retry shortly`,
  },
  outcome: "unknown",
});

/** The answer to a request whose requester stopped waiting before the work could start. */
export const deadlinePassed = (subject: string): BusReply => ({
  ok: false,
  error: {
    code: "upstream_timeout",
    message: `The ${serviceOf(subject)} service could not start on the request before its deadline; retry shortly`,
  },
});

/**
 * A write the gateway could not get an answer for, though a service may have applied it: not a plain
 * 503, which says that nothing was written.
 */
export const outcomeUnknown = (subject: string): BusReply => ({
  ok: false,
  error: {
    code: "outcome_unknown",
    message: `The ${serviceOf(subject)} service took this change and stopped answering before it said whether it was applied; read the data back before sending it again (sent again with the same Idempotency-Key, a change applies once)`,
  },
});

export const requestTooLarge = (bytes: number, limit: number): BusReply => ({
  ok: false,
  error: {
    code: "payload_too_large",
    message: `The request is ${bytes} bytes once it carries its context, more than the ${limit} bytes a message between the platform's services may hold; send less at once`,
  },
});

export const dependencyUnavailable = (subject: string): BusReply => ({
  ok: false,
  error: {
    code: "service_unavailable",
    message: `The ${serviceOf(subject)} service cannot reach its database right now; retry shortly`,
  },
});

/**
 * The service's database connection broke while a change was being committed: it may have been
 * applied. A read so answered is a plain 503; a write is sent again or answered `outcome_unknown`.
 */
export const commitOutcomeUnknown = (subject: string): BusReply => ({
  ok: false,
  error: {
    code: "service_unavailable",
    message: `The ${serviceOf(subject)} service lost its database while applying the change; whether it was applied is unknown: read before sending it again (sent again with the same Idempotency-Key, a change applies once)`,
  },
  outcome: "unknown",
});

function serviceOf(subject: string): string {
  const parts = subject.split(".");
  const v1 = parts.indexOf("v1");
  return v1 >= 0 ? (parts[v1 + 1] ?? subject) : subject;
}

/** Stops every subscription of a service. */
export function unsubscribeAll(subscriptions: readonly Subscription[]): void {
  for (const subscription of subscriptions) subscription.unsubscribe();
}
