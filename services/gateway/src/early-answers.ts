import type { IncomingMessage } from "node:http";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";

/** How long an answered request's remaining body is read, and how much of it, before the connection is closed. */
const LINGER_MS = 5_000;
const LINGER_BYTES = 16 * 1024 * 1024;

/**
 * A request answered before its body was read (a body over the limit, a malformed one, a bad header)
 * is answered and its connection kept reading, as a lingering close: the body is read on and thrown
 * away, so that the client finishes sending and reads the answer. Fastify closes such a connection as
 * soon as its answer is written, and a client still sending then gets a reset (EPIPE, ECONNRESET)
 * instead of the 413 that says what was wrong. A body that goes on past `LINGER_BYTES` or
 * `LINGER_MS` has the connection closed under it. Not encapsulated (`fastify-plugin`): its hook is for
 * every route of the gateway.
 */
export const answerBeforeTheBody = fp(lingerOnAnsweredBodies, { name: "answer-before-the-body" });

async function lingerOnAnsweredBodies(app: FastifyInstance): Promise<void> {
  app.addHook("onSend", async (request, reply, payload) => {
    if (request.raw.complete || reply.getHeader("connection") !== "close") return payload;
    reply.removeHeader("connection");
    readOnAndDiscard(request.raw);
    return payload;
  });
}

/**
 * Reads the rest of an answered request's body and throws it away (at most `LINGER_BYTES` or
 * `LINGER_MS`), so that a client still sending reads the answer instead of a reset.
 */
export function readOnAndDiscard(request: IncomingMessage): void {
  if (request.complete || request.destroyed) return;
  let read = 0;
  // The message's destroy closes its socket (and is there on a request made in-process, which has none).
  const close = () => request.destroy();
  const timer = setTimeout(close, LINGER_MS);
  timer.unref();
  request.on("data", (chunk: Buffer) => {
    read += chunk.length;
    if (read > LINGER_BYTES) close();
  });
  request.once("close", () => clearTimeout(timer));
  // A reader that stopped without letting go (the bus's object store, its server lost, keeps its
  // iterator over the body) leaves a "readable" listener, and with one the stream never flows: the
  // body stayed unread until the connection was closed under the client, and under its next request.
  // A pipe into a stalled reader (a gzip body's unpacking) would pause it again as soon as it flowed.
  request.unpipe();
  request.removeAllListeners("readable");
  request.resume();
}
