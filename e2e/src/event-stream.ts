import { createParser } from "eventsource-parser";

export interface ReceivedEvent {
  id: string | undefined;
  event: string | undefined;
  data: { version: number; rowIds: string[]; [field: string]: unknown };
}

/** A live-changes stream as a client holds it: the response's status and headers, and the events so far. */
export interface OpenStream {
  status: number;
  headers: Headers;
  /** The error body, when the status is not 200. */
  error: unknown;
  events: ReceivedEvent[];
  comments: string[];
  /** Resolves once `count` events arrived in all; rejects after `timeoutMs`. */
  waitForEvents(count: number, timeoutMs?: number): Promise<ReceivedEvent[]>;
  /** Drops the connection, as a client whose network fails does. */
  close(): void;
  /** Resolves when the server ended the stream. */
  ended: Promise<void>;
}

/** Opens `GET <path>` as a Server-Sent Events client does, reading events as they come. */
export async function openStream(
  baseUrl: string,
  apiKey: string,
  path: string,
  headers: Record<string, string> = {},
): Promise<OpenStream> {
  const abort = new AbortController();
  const response = await fetch(`${baseUrl}${path}`, {
    headers: { authorization: `Bearer ${apiKey}`, accept: "text/event-stream", ...headers },
    signal: abort.signal,
  });
  const events: ReceivedEvent[] = [];
  const comments: string[] = [];
  const waiters = new Set<() => void>();
  if (response.status !== 200) {
    return {
      status: response.status,
      headers: response.headers,
      error: await response.json(),
      events,
      comments,
      waitForEvents: () => Promise.reject(new Error(`the stream answered ${response.status}`)),
      close: () => abort.abort(),
      ended: Promise.resolve(),
    };
  }
  const parser = createParser({
    onEvent: (message) => {
      events.push({ id: message.id, event: message.event, data: JSON.parse(message.data) });
      for (const wake of waiters) wake();
    },
    onComment: (comment) => comments.push(comment),
  });
  const ended = (async () => {
    const decoder = new TextDecoder();
    try {
      for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
        parser.feed(decoder.decode(chunk, { stream: true }));
      }
    } catch {
      // Aborted by the client, or cut by the server: the stream has ended either way.
    }
  })();
  return {
    status: response.status,
    headers: response.headers,
    error: undefined,
    events,
    comments,
    waitForEvents: (count, timeoutMs = 10_000) =>
      new Promise((resolve, reject) => {
        const check = () => {
          if (events.length < count) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(events.slice(0, count));
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`${events.length} of ${count} events within ${timeoutMs} ms`));
        }, timeoutMs);
        waiters.add(check);
        check();
      }),
    close: () => abort.abort(),
    ended,
  };
}
