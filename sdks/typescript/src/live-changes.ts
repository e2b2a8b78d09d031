import type { DatasetVersionEvent } from "./api.generated.js";
import { SvcError } from "./errors.js";
import { encodePath, type RequestOptions, type Transport } from "./transport.js";

export interface WatchOptions extends Omit<RequestOptions, "idempotencyKey"> {
  /** Start after this version: every later one is yielded first, then the live ones. Default: the next new one. */
  since?: number | undefined;
  /** Reconnections in a row that may fail (connection refused, 5xx, 429) before the iteration throws (default 10). */
  maxReconnects?: number | undefined;
}

const INITIAL_BACKOFF_MS = 250;
const MAX_BACKOFF_MS = 8_000;

/**
 * A dataset's new versions as they are made: `GET …/events`, read as Server-Sent Events. A dropped
 * connection is reopened with `Last-Event-ID` after a backoff, so each version is yielded once and in
 * order across reconnections; the request's own errors (404, 401, 400) are thrown. Ends when `signal`
 * aborts or the loop breaks.
 */
export async function* watchDataset(
  transport: Transport,
  projectSlug: string,
  datasetSlug: string,
  options: WatchOptions = {},
): AsyncGenerator<DatasetVersionEvent, void, undefined> {
  const path = `/v1/projects/${encodePath(projectSlug)}/datasets/${encodePath(datasetSlug)}/events`;
  const maxReconnects = options.maxReconnects ?? 10;
  let last = options.since;
  let failures = 0;
  while (!options.signal?.aborted) {
    let body: ReadableStream<Uint8Array> | null = null;
    try {
      const response = await transport.download({
        method: "GET",
        path,
        headers: {
          accept: "text/event-stream",
          ...(last === undefined ? {} : { "last-event-id": String(last) }),
        },
        options,
      });
      body = response.body;
      failures = 0;
      for await (const message of serverSentEvents(body, options.signal)) {
        if (message.event !== "version" || message.data === "") continue;
        const event = JSON.parse(message.data) as DatasetVersionEvent;
        // A version at or before the last yielded one is a repeat across a reconnection: skipped.
        if (last !== undefined && event.version <= last) continue;
        last = event.version;
        yield event;
      }
    } catch (error) {
      if (options.signal?.aborted) return;
      // The platform's answer to the request (404, 401, 400) ends the iteration; so does a failure of
      // this code. A connection that failed, or dropped mid-stream, is reopened.
      const dropped = !(error instanceof SvcError) && body !== null;
      if (error instanceof SvcError ? !reconnectable(error) : !dropped) throw error;
      failures++;
      if (failures > maxReconnects) throw error;
    }
    if (options.signal?.aborted) return;
    await sleep(backoff(failures), options.signal);
  }
}

/** Worth reconnecting after: no connection, a timeout, a platform busy or down for a moment. */
const reconnectable = (error: SvcError) => error.status === 0 || error.status === 429 || error.status >= 500;

function backoff(failures: number): number {
  const ceiling = Math.min(MAX_BACKOFF_MS, INITIAL_BACKOFF_MS * 2 ** Math.max(0, failures - 1));
  return ceiling / 2 + Math.random() * (ceiling / 2);
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    }
    signal?.addEventListener("abort", done, { once: true });
  });
}

interface Message {
  id: string | undefined;
  event: string;
  data: string;
}

/**
 * The events of a `text/event-stream` body, as the WHATWG specification parses them (lines ended by
 * LF, CR or CRLF; `field: value` with one optional space; a blank line dispatches; `:` comments and
 * unknown fields ignored). Written here because the SDK has no runtime dependency; the stream this
 * platform sends is this simple subset, and the parser is the few lines below.
 */
async function* serverSentEvents(
  body: ReadableStream<Uint8Array> | null,
  signal: AbortSignal | undefined,
): AsyncGenerator<Message> {
  if (body === null) return;
  const reader = body.getReader();
  const cancel = () => void reader.cancel().catch(() => undefined);
  signal?.addEventListener("abort", cancel, { once: true });
  const decoder = new TextDecoder();
  let buffer = "";
  let message: Message = { id: undefined, event: "message", data: "" };
  let data: string[] = [];
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      const lines = buffer.split(/\r\n|\r|\n/);
      // A CR at the very end may be the first half of a CRLF: keep it with the unfinished line.
      buffer = lines.pop() ?? "";
      for (const line of lines) {
        if (line === "") {
          if (data.length > 0) yield { ...message, data: data.join("\n") };
          message = { id: message.id, event: "message", data: "" };
          data = [];
          continue;
        }
        if (line.startsWith(":")) continue;
        const colon = line.indexOf(":");
        const field = colon < 0 ? line : line.slice(0, colon);
        const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
        if (field === "data") data.push(value);
        else if (field === "event") message.event = value;
        else if (field === "id" && !value.includes("\0")) message.id = value;
      }
    }
  } finally {
    signal?.removeEventListener("abort", cancel);
    cancel();
  }
}
