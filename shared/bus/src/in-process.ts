import { propagation, ROOT_CONTEXT } from "@opentelemetry/api";
import {
  type Announcement,
  type Bus,
  type BusReply,
  type BusRequest,
  type EventHandler,
  type Handler,
  type RequestOptions,
  type ServiceIdentity,
  type Subscription,
  timedOut,
  unavailable,
} from "./bus";
import { type Delivery, sendRequest } from "./send-request";
import { BusTelemetry, type Carrier, carrierGetter, carrierSetter } from "./telemetry";

/**
 * The bus inside one process. Messages are copied through JSON exactly as they would cross the wire,
 * handlers of a subject take turns like a NATS queue group, and a subject nobody serves answers 503.
 */
export class InProcessBus implements Bus {
  private readonly servers = new Map<string, { handlers: Handler[]; next: number }>();
  private readonly listeners = new Map<string, Set<EventHandler>>();
  private readonly inFlight = new Set<Promise<unknown>>();
  /** How many instances of each service announced themselves and still run. */
  private readonly announced = new Map<string, number>();
  private closed = false;
  private readonly telemetry = new BusTelemetry("in-process");

  request(subject: string, request: BusRequest, options: RequestOptions = {}): Promise<BusReply> {
    return sendRequest(this.telemetry, subject, request, options, (delivery) => this.send(delivery));
  }

  private async send({ subject, request, sendContext, timeoutMs }: Delivery): Promise<BusReply> {
    const group = this.servers.get(subject);
    const handler = group?.handlers[group.next++ % group.handlers.length];
    if (this.closed || !handler) return unavailable(subject);
    // The handler starts from what the message carries, as it would in another process.
    const headers: Carrier = {};
    propagation.inject(sendContext, headers, carrierSetter);
    const parent = propagation.extract(ROOT_CONTEXT, headers, carrierGetter);
    const work = this.telemetry.serve(subject, parent, () => wire(request), handler).then(wireReply);
    this.track(work);
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<BusReply>((resolve) => {
      timer = setTimeout(() => resolve(timedOut(subject, timeoutMs)), timeoutMs);
    });
    try {
      return await Promise.race([work, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  serve(subject: string, handler: Handler): Subscription {
    const group = this.servers.get(subject) ?? { handlers: [], next: 0 };
    group.handlers.push(handler);
    this.servers.set(subject, group);
    return {
      unsubscribe: () => {
        group.handlers = group.handlers.filter((h) => h !== handler);
      },
    };
  }

  publish(subject: string, payload: unknown): void {
    for (const listener of this.listeners.get(subject) ?? []) {
      queueMicrotask(() => listener(wire(payload)));
    }
  }

  subscribe(subject: string, handler: EventHandler): Subscription {
    const set = this.listeners.get(subject) ?? new Set();
    set.add(handler);
    this.listeners.set(subject, set);
    return { unsubscribe: () => set.delete(handler) };
  }

  async announce(service: ServiceIdentity): Promise<Announcement> {
    const { name } = service;
    this.announced.set(name, (this.announced.get(name) ?? 0) + 1);
    let stopped = false;
    return {
      stop: async () => {
        if (stopped) return;
        stopped = true;
        this.announced.set(name, (this.announced.get(name) ?? 1) - 1);
      },
    };
  }

  async ping(service: string): Promise<BusReply> {
    return !this.closed && (this.announced.get(service) ?? 0) > 0
      ? { ok: true, data: null }
      : unavailable(service);
  }

  isConnected(): boolean {
    return !this.closed;
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.allSettled([...this.inFlight]);
    this.servers.clear();
    this.listeners.clear();
    this.announced.clear();
  }

  private track(work: Promise<unknown>): void {
    this.inFlight.add(work);
    void work.finally(() => this.inFlight.delete(work)).catch(() => undefined);
  }
}

/** What crosses the wire: plain JSON, no shared references. */
function wire<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

/** A reply as it crosses the wire: its JSON, and its body's bytes copied beside it. */
function wireReply(reply: BusReply): BusReply {
  if (!reply.ok || reply.body === undefined) return wire(reply);
  const { body, ...rest } = reply;
  return { ...wire(rest), body: body.slice() };
}
