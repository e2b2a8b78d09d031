import {
  createInbox,
  Empty,
  type Msg,
  type NatsConnection,
  headers as natsHeaders,
  type Subscription,
} from "nats";

/**
 * Replies of any size over NATS, whose messages hold at most `max_payload` bytes (1 MiB unless
 * configured otherwise). What a service may answer is bounded by what it stores, not by a message: a
 * row merged from several edits, or a page whose first item is such a row, outweighs one message. A
 * reply that does not fit is sent as parts, in order, to the requester's reply subject; the first part
 * says how many there are. NATS keeps the order of messages from one connection to one subscription.
 */
const PARTS_HEADER = "Svc-Parts";
/**
 * On a reply with a body (see `BusReply`): where the body starts. The JSON comes first, the body's
 * bytes after it as they are.
 */
const BODY_HEADER = "Svc-Body-At";
/**
 * On a message without a body: the service still works on the request (see `WORKING_EVERY_MS`), so
 * the requester keeps waiting for it.
 */
const WORKING_HEADER = "Svc-Working";
/** Room left in a message for its headers (`traceparent`, `tracestate`, `baggage`, `Svc-Parts`), which the server counts too. */
export const HEADERS_ALLOWANCE = 4 * 1024;

/** A reply as it is sent: its JSON, then its body's bytes, if any, starting at `bodyAt`. */
export interface EncodedReply {
  payload: Uint8Array;
  bodyAt?: number | undefined;
}

/** Sends a reply to `msg`, in as many parts as `maxPayload` requires. */
export function sendReply(nc: NatsConnection, msg: Msg, reply: EncodedReply, maxPayload: number): void {
  const { payload, bodyAt } = reply;
  const headers = bodyAt === undefined ? undefined : natsHeaders();
  headers?.set(BODY_HEADER, String(bodyAt));
  if (payload.length <= maxPayload - HEADERS_ALLOWANCE || !msg.reply) {
    msg.respond(payload, headers ? { headers } : undefined);
    return;
  }
  const size = maxPayload - HEADERS_ALLOWANCE;
  const count = Math.ceil(payload.length / size);
  const first = headers ?? natsHeaders();
  first.set(PARTS_HEADER, String(count));
  msg.respond(payload.subarray(0, size), { headers: first });
  for (let part = 1; part < count; part++) {
    nc.publish(msg.reply, payload.subarray(part * size, (part + 1) * size));
  }
}

/** Tells the requester of `msg` that its request is still being worked on. */
export function sendWorking(msg: Msg): void {
  const headers = natsHeaders();
  headers.set(WORKING_HEADER, "1");
  msg.respond(Empty, { headers });
}

export type Outcome =
  | { kind: "reply"; data: Uint8Array; bodyAt?: number | undefined }
  | { kind: "noResponders" }
  | { kind: "timeout" }
  /** Nothing came, neither a reply nor a sign of work, for the request's `silenceMs`. */
  | { kind: "silent" }
  /** Not sent: the client library refused to publish it. */
  | { kind: "unsent" }
  /** Sent, and the connection dropped before the reply came. */
  | { kind: "lost" };

/**
 * How late this process may run and still trust a silence it measured: a requester busier than this
 * may not have read what the service sent, so a silence that overlaps such a delay is timed again.
 */
const SILENCE_LAG_TOLERANCE_MS = 100;
/** How often the requester checks that it runs on time (see `lastLateAt`). */
const PUNCTUALITY_TICK_MS = 50;

interface Outgoing {
  subject: string;
  payload: Uint8Array;
  token: string;
  headers: ReturnType<typeof natsHeaders>;
}

interface Pending {
  settle(outcome: Outcome): void;
  /** Notes that the service said something: its silence starts again from now. */
  heard(): void;
  parts: Uint8Array[];
  expected: number;
  bodyAt?: number | undefined;
}

/**
 * The requester's side: one subscription on a wildcard inbox for all of a connection's requests, each
 * request a token under it (as nats.js's own request multiplexing does), so that a reply may come in
 * several messages. Every request ends exactly once: with its reply, with no responders, at its
 * timeout, or when the connection drops (`abandonAll`).
 */
export class ReplyInbox {
  private readonly prefix = createInbox();
  private readonly pending = new Map<string, Pending>();
  private readonly subscription: Subscription;
  private next = 0;
  /** Requests to publish at the end of this turn of the event loop (see `request`). */
  private outbox: Outgoing[] = [];
  /**
   * When this process last ran later than `SILENCE_LAG_TOLERANCE_MS`: under a burst, replies wait in
   * the socket while the process works through what came before, and their silence is its own doing.
   */
  private lastLateAt = 0;
  private readonly punctuality: NodeJS.Timeout;

  constructor(private readonly nc: NatsConnection) {
    let tickedAt = Date.now();
    this.punctuality = setInterval(() => {
      const now = Date.now();
      if (now - tickedAt - PUNCTUALITY_TICK_MS > SILENCE_LAG_TOLERANCE_MS) this.lastLateAt = now;
      tickedAt = now;
    }, PUNCTUALITY_TICK_MS);
    this.punctuality.unref();
    this.subscription = nc.subscribe(`${this.prefix}.*`, {
      callback: (error, msg) => {
        if (!error) this.deliver(msg);
      },
    });
  }

  /** Publishes `payload` to `subject` and resolves with how the request ended. */
  request(
    subject: string,
    payload: Uint8Array,
    headers: ReturnType<typeof natsHeaders>,
    timeoutMs: number,
    silenceMs?: number,
  ): Promise<Outcome> {
    const token = (this.next++).toString(36);
    return new Promise<Outcome>((resolve) => {
      const timer = setTimeout(() => end({ kind: "timeout" }), timeoutMs);
      let silence: NodeJS.Timeout | undefined;
      let heardAt = Date.now();
      let ended = false;
      const end = (outcome: Outcome) => {
        ended = true;
        clearTimeout(timer);
        clearTimeout(silence);
        this.pending.delete(token);
        resolve(outcome);
      };
      // Only when it ends before the timeout: one timer less for every request that cannot go silent.
      if (silenceMs !== undefined && silenceMs < timeoutMs) {
        const watchUntil = (due: number) => {
          silence = setTimeout(() => checkSilence(due), Math.max(0, due - Date.now()));
        };
        // Checked once the messages already received have been read (setImmediate runs after the
        // event loop's I/O), and not at all while this process runs late: a busy requester must not
        // take its own delay in reading a reply for the service's silence.
        const checkSilence = (due: number) => {
          const now = Date.now();
          const late = now - due > SILENCE_LAG_TOLERANCE_MS || now - this.lastLateAt < silenceMs;
          setImmediate(() => {
            if (ended) return;
            const now = Date.now();
            if (!late && now - heardAt >= silenceMs) end({ kind: "silent" });
            else watchUntil((late ? now : heardAt) + silenceMs);
          });
        };
        watchUntil(heardAt + silenceMs);
      }
      const heard = () => {
        heardAt = Date.now();
      };
      this.pending.set(token, { settle: end, heard, parts: [], expected: 1 });
      // Published with every other request of this turn of the event loop, in one write to the
      // server: a gateway under load reads many HTTP requests per turn, and a write (a system call,
      // and a wake-up of the server) for each of them cost more than its request's own work.
      if (this.outbox.length === 0) setImmediate(() => this.publishOutbox());
      this.outbox.push({ subject, payload, token, headers });
    });
  }

  private publishOutbox(): void {
    const outbox = this.outbox;
    this.outbox = [];
    for (const { subject, payload, token, headers } of outbox) {
      const pending = this.pending.get(token);
      // Ended already (the connection dropped): nobody waits for its reply.
      if (!pending) continue;
      try {
        this.nc.publish(subject, payload, { reply: `${this.prefix}.${token}`, headers });
      } catch {
        pending.settle({ kind: "unsent" });
      }
    }
  }

  /** Ends every request in flight as lost: their replies, if any come, would use a dropped connection. */
  abandonAll(): void {
    for (const pending of [...this.pending.values()]) pending.settle({ kind: "lost" });
  }

  close(): void {
    clearInterval(this.punctuality);
    this.subscription.unsubscribe();
    this.abandonAll();
  }

  private deliver(msg: Msg): void {
    const token = msg.subject.slice(this.prefix.length + 1);
    const pending = this.pending.get(token);
    if (!pending) return;
    // The server's own answer when nobody subscribes to the subject: an empty message with status 503.
    if (msg.data.length === 0 && msg.headers?.code === 503) {
      pending.settle({ kind: "noResponders" });
      return;
    }
    pending.heard();
    if (msg.data.length === 0 && msg.headers?.has(WORKING_HEADER)) return;
    if (pending.parts.length === 0) {
      pending.expected = Number(msg.headers?.get(PARTS_HEADER) || 1);
      const bodyAt = msg.headers?.get(BODY_HEADER);
      if (bodyAt) pending.bodyAt = Number(bodyAt);
    }
    // A part is copied: it must outlive the buffer the client library read it from.
    pending.parts.push(pending.expected === 1 ? msg.data : msg.data.slice());
    if (pending.parts.length < pending.expected) return;
    const data = pending.parts.length === 1 ? msg.data : Buffer.concat(pending.parts);
    pending.settle({ kind: "reply", data, bodyAt: pending.bodyAt });
  }
}
