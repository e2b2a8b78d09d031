import { context, propagation } from "@opentelemetry/api";
import { internalErrorMessage } from "@svc/contracts";
import type { Logger } from "@svc/telemetry";
import {
  connect,
  Empty,
  type Msg,
  type MsgHdrs,
  type NatsConnection,
  type Subscription as NatsSubscription,
  headers as natsHeaders,
} from "nats";
import {
  type Announcement,
  type Bus,
  type BusReply,
  type BusRequest,
  connectionLost,
  type EventHandler,
  type Handler,
  notSent,
  type RequestOptions,
  requestTooLarge,
  type ServiceIdentity,
  type Subscription,
  timedOut,
  unavailable,
  WORKING_EVERY_MS,
  wentSilent,
} from "./bus";
import { type EncodedReply, HEADERS_ALLOWANCE, ReplyInbox, sendReply, sendWorking } from "./nats-replies";
import { natsServersOf } from "./nats-servers";
import { type Delivery, sendRequest } from "./send-request";
import { BusTelemetry } from "./telemetry";

export interface NatsBusOptions {
  /** The NATS server, or a cluster's servers separated by commas (see `natsServersOf`). */
  url: string;
  /** Client name shown by the NATS server's monitoring. */
  name: string;
  /** Prepended to every subject, so that test runs sharing one server never see each other. */
  prefix?: string;
  /** Requests a process works on at once; beyond it a request is refused at once with 503. */
  maxInFlight?: number;
  logger: Logger;
}

const QUEUE_GROUP = "svc";
/** NATS's own default for `max_payload`, until the server's INFO says otherwise. */
const DEFAULT_MAX_PAYLOAD = 1024 * 1024;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

export class NatsBus implements Bus {
  private readonly subscriptions = new Set<NatsSubscription>();
  private readonly inFlight = new Set<Promise<void>>();
  /** The requests this process works on, with when each arrived (see `keepSayingWorking`). */
  private readonly working = new Map<Msg, number>();
  private workingTimer: NodeJS.Timeout | undefined;
  /** Requests sent and not yet answered; answered at once if the connection drops (see `watchStatus`). */
  private readonly replies: ReplyInbox;
  private readonly telemetry = new BusTelemetry("nats");

  private constructor(
    private readonly nc: NatsConnection,
    private readonly options: NatsBusOptions,
  ) {
    this.replies = new ReplyInbox(nc);
  }

  /** Connects, retrying with backoff until the server answers; reconnects by itself afterwards. */
  static async connect(options: NatsBusOptions): Promise<NatsBus> {
    const nc = await connect({
      // Any of a cluster's servers; the client moves to another when its server goes away, and learns
      // of servers added to the cluster from the one it is connected to.
      servers: natsServersOf(options.url),
      name: options.name,
      waitOnFirstConnect: true,
      reconnect: true,
      maxReconnectAttempts: -1,
      reconnectTimeWait: 250,
      reconnectJitter: 100,
      pingInterval: 5_000,
      maxPingOut: 2,
      // No Error (and stack capture) made for every request: it costs more than the request itself.
      noAsyncTraces: true,
    });
    const bus = new NatsBus(nc, options);
    void bus.watchStatus();
    return bus;
  }

  request(subject: string, request: BusRequest, options: RequestOptions = {}): Promise<BusReply> {
    return sendRequest(this.telemetry, subject, request, options, (delivery) =>
      this.send(delivery, options.silenceMs),
    );
  }

  private async send(
    { subject, request, sendContext, timeoutMs }: Delivery,
    silenceMs: number | undefined,
  ): Promise<BusReply> {
    const headers = natsHeaders();
    propagation.inject(sendContext, headers, { set: (carrier, key, value) => carrier.set(key, value) });
    const payload = encode(request);
    // The server counts the trace-context headers too.
    const limit = this.maxPayload - HEADERS_ALLOWANCE;
    if (payload.length > limit) return requestTooLarge(payload.length, limit);
    // While reconnecting, nats.js would buffer the request and let it wait out its timeout.
    if (!this.connected) return notSent(subject);
    const outcome = await this.replies.request(
      this.subjectOf(subject),
      payload,
      headers,
      timeoutMs,
      silenceMs,
    );
    switch (outcome.kind) {
      case "reply":
        return decodeReply(outcome.data, outcome.bodyAt);
      case "noResponders":
        return unavailable(subject);
      case "timeout":
        return timedOut(subject, timeoutMs);
      case "silent":
        return wentSilent(subject, silenceMs ?? timeoutMs);
      case "unsent":
        return notSent(subject);
      case "lost":
        return connectionLost(subject);
    }
  }

  serve(subject: string, handler: Handler): Subscription {
    const maxInFlight = this.options.maxInFlight ?? 512;
    const sub = this.nc.subscribe(this.subjectOf(subject), {
      queue: QUEUE_GROUP,
      callback: (error, msg) => {
        if (error) {
          this.options.logger.error({ err: error, subject }, "bus subscription failed");
          return;
        }
        if (this.inFlight.size >= maxInFlight) {
          msg.respond(encode(unavailable(subject)));
          return;
        }
        const parent = propagation.extract(context.active(), msg.headers, {
          get: (carrier: MsgHdrs | undefined, key) => carrier?.get(key) || undefined,
          keys: (carrier: MsgHdrs | undefined) => (carrier ? carrier.keys() : []),
        });
        const read = () => JSON.parse(decoder.decode(msg.data)) as BusRequest;
        if (msg.reply) this.working.set(msg, Date.now());
        const work = this.telemetry.serve(subject, parent, read, handler).then(
          (reply) => this.respond(msg, subject, reply),
          (failure: unknown) => {
            this.options.logger.error({ err: failure, subject }, "bus handler failed");
            this.respond(msg, subject, {
              ok: false,
              error: { code: "internal_error", message: internalErrorMessage() },
            });
          },
        );
        this.inFlight.add(work);
        void work.finally(() => this.inFlight.delete(work));
      },
    });
    this.subscriptions.add(sub);
    this.keepSayingWorking();
    return { unsubscribe: () => void sub.drain().finally(() => this.subscriptions.delete(sub)) };
  }

  /**
   * Tells the requester of every request this process has worked on for `WORKING_EVERY_MS` or more
   * that it still does, every `WORKING_EVERY_MS`: a requester that hears nothing for longer than its
   * `silenceMs` takes the process for dead and may send the request elsewhere. A request answered
   * sooner, as nearly all are, costs no message more; one timer serves them all.
   */
  private keepSayingWorking(): void {
    if (this.workingTimer) return;
    this.workingTimer = setInterval(() => {
      const now = Date.now();
      for (const [msg, since] of this.working) {
        if (now - since < WORKING_EVERY_MS) continue;
        try {
          sendWorking(msg);
        } catch {
          // The connection is closing: the requester will hear nothing more either way.
        }
      }
    }, WORKING_EVERY_MS);
    this.workingTimer.unref();
  }

  /**
   * The largest message the server takes (`max_payload`, 1 MiB unless configured otherwise). A request
   * over it is answered with what went wrong (the client library would refuse it with an exception,
   * which would look like a service that does not answer); a reply over it goes in parts.
   */
  private get maxPayload(): number {
    return this.nc.info?.max_payload ?? DEFAULT_MAX_PAYLOAD;
  }

  /** Answers a request, in parts if the reply is larger than a message may be. */
  private respond(msg: Msg, subject: string, reply: BusReply): void {
    this.working.delete(msg);
    try {
      sendReply(this.nc, msg, encodeReply(reply), this.maxPayload);
    } catch (error) {
      this.options.logger.error({ err: error, subject }, "bus reply failed");
    }
  }

  publish(subject: string, payload: unknown): void {
    this.nc.publish(this.subjectOf(subject), encode(payload));
  }

  subscribe(subject: string, handler: EventHandler): Subscription {
    const sub = this.nc.subscribe(this.subjectOf(subject), {
      callback: (error, msg) => {
        if (error) return;
        try {
          handler(JSON.parse(decoder.decode(msg.data)));
        } catch (failure) {
          this.options.logger.error({ err: failure, subject }, "bus event handler failed");
        }
      },
    });
    this.subscriptions.add(sub);
    return { unsubscribe: () => sub.unsubscribe() };
  }

  /**
   * Registers the service with nats.js's services framework for its monitoring subjects only; requests
   * stay on the subscriptions of `serve`. Its STATS list no endpoints: request counts and durations by
   * subject are the bus's metrics (see BusTelemetry).
   */
  async announce(service: ServiceIdentity): Promise<Announcement> {
    const registered = await this.nc.services.add({
      ...service,
      name: this.serviceName(service.name),
      ...(this.options.prefix ? { metadata: { bus_prefix: this.options.prefix } } : {}),
    });
    // Announced once the server has its subscriptions, not when they are merely queued to be sent.
    await this.nc.flush();
    return { stop: async () => void (await registered.stop()) };
  }

  /** A request to the services protocol's `$SRV.PING.<name>`: the first instance to answer is enough. */
  async ping(service: string, timeoutMs: number): Promise<BusReply> {
    if (!this.connected) return notSent(service);
    const subject = `$SRV.PING.${this.serviceName(service)}`;
    const outcome = await this.replies.request(subject, Empty, natsHeaders(), timeoutMs);
    switch (outcome.kind) {
      case "reply":
        return { ok: true, data: null };
      case "noResponders":
        return unavailable(service);
      case "timeout":
      case "silent":
        return timedOut(service, timeoutMs);
      case "unsent":
        return notSent(service);
      case "lost":
        return connectionLost(service);
    }
  }

  /** What this bus prepends to its subjects, if anything. */
  get prefix(): string | undefined {
    return this.options.prefix;
  }

  /** `$SRV.*` subjects are global: a prefixed bus (a test run) names its services with the prefix instead. */
  private serviceName(name: string): string {
    return this.options.prefix ? `${this.options.prefix}-${name}` : name;
  }

  isConnected(): boolean {
    return !this.nc.isClosed() && this.connected;
  }

  /** The connection itself, for what request-reply does not cover (the gateways' shared rate limits). */
  get connection(): NatsConnection {
    return this.nc;
  }

  async close(): Promise<void> {
    await Promise.allSettled([...this.subscriptions].map((sub) => sub.drain()));
    await Promise.allSettled([...this.inFlight]);
    clearInterval(this.workingTimer);
    this.replies.close();
    if (!this.nc.isClosed()) await this.nc.drain().catch(() => this.nc.close());
  }

  private connected = true;

  private async watchStatus(): Promise<void> {
    for await (const status of this.nc.status()) {
      if (status.type === "disconnect") {
        this.connected = false;
        // Their replies, if any come, would come over the connection that just dropped.
        this.replies.abandonAll();
        this.options.logger.warn("bus disconnected; reconnecting");
      } else if (status.type === "reconnect") {
        this.connected = true;
        this.options.logger.info("bus reconnected");
      }
    }
  }

  private subjectOf(subject: string): string {
    return this.options.prefix ? `${this.options.prefix}.${subject}` : subject;
  }
}

function encode(value: unknown): Uint8Array {
  return encoder.encode(JSON.stringify(value));
}

/** A reply's JSON, with its body's bytes after it as they are. */
function encodeReply(reply: BusReply): EncodedReply {
  if (!reply.ok || reply.body === undefined) return { payload: encode(reply) };
  const { body, ...rest } = reply;
  const json = encode(rest);
  const payload = new Uint8Array(json.length + body.length);
  payload.set(json);
  payload.set(body, json.length);
  return { payload, bodyAt: json.length };
}

function decodeReply(data: Uint8Array, bodyAt: number | undefined): BusReply {
  if (bodyAt === undefined) return JSON.parse(decoder.decode(data)) as BusReply;
  const reply = JSON.parse(decoder.decode(data.subarray(0, bodyAt))) as BusReply;
  return reply.ok ? { ...reply, body: data.subarray(bodyAt) } : reply;
}
