import { createReadStream } from "node:fs";
import { type Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { networkError, timeoutError } from "./network-errors";
import { redactBody, redactHeader, redactUrl } from "./redact";
import type { PreparedRequest } from "./request";
import type { Transport } from "./transport";

export interface HttpResponse {
  status: number;
  statusText: string;
  headers: [string, string][];
  body: Buffer;
}

export interface SendOptions {
  transport: Transport;
  /** Total time for the request, retries included. */
  timeoutMs: number;
  debug: ((text: string) => void) | undefined;
  /** Attempts in all, the first included. */
  attempts?: number;
  sleep?: (ms: number) => Promise<void>;
  /**
   * Where a successful response's body goes as it arrives, instead of into memory (a file download);
   * the timeout then bounds the wait for the response's head, not the whole transfer.
   */
  sink?: NodeJS.WritableStream;
}

const RETRY_STATUSES = new Set([408, 429, 502, 503, 504]);
const BASE_DELAY_MS = 250;
const MAX_DELAY_MS = 4000;

/**
 * Sends a request, retrying with jittered exponential backoff on connection errors, 408, 429 (after
 * Retry-After) and 502-504. Mutations are retried too: they carry one Idempotency-Key for the whole
 * invocation, so a retry cannot apply an edit twice.
 */
export async function send(request: PreparedRequest, options: SendOptions): Promise<HttpResponse> {
  const deadline = Date.now() + options.timeoutMs;
  // Standard input is gone once sent: one attempt only.
  const attempts = request.file?.path === "-" ? 1 : (options.attempts ?? 4);
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((done) => setTimeout(done, ms)));
  for (let attempt = 1; ; attempt++) {
    const remaining = deadline - Date.now();
    if (remaining <= 0) throw timeoutError(request, options.timeoutMs);
    options.debug?.(describeRequest(request, attempt));
    let response: HttpResponse;
    const abort = new AbortController();
    // Once part of a body has gone to the sink, a retry would write it twice: a failure then is final.
    let streaming = false;
    const timer = setTimeout(
      () => abort.abort(new DOMException("The operation timed out", "TimeoutError")),
      remaining,
    );
    try {
      const answer = await options.transport.exchange(request.url, {
        method: request.method,
        headers: request.headers,
        body: request.file ? fileBody(request.file) : (request.body ?? null),
        signal: abort.signal,
      });
      let body = Buffer.alloc(0);
      if (options.sink && answer.statusCode >= 200 && answer.statusCode < 300) {
        clearTimeout(timer);
        streaming = true;
        await pipeline(answer.body, options.sink, { end: false });
      } else body = Buffer.concat(await answer.body.toArray());
      clearTimeout(timer);
      response = {
        status: answer.statusCode,
        statusText: answer.statusText,
        headers: flattenHeaders(answer.headers),
        body,
      };
    } catch (error) {
      clearTimeout(timer);
      const failure = networkError(error, request, options);
      const delay = backoff(attempt);
      if (streaming || !failure.retryable || attempt >= attempts || Date.now() + delay >= deadline)
        throw failure.error;
      options.debug?.(`* ${failure.error.message}; retrying in ${delay} ms`);
      await sleep(delay);
      continue;
    }
    options.debug?.(describeResponse(response));
    if (!RETRY_STATUSES.has(response.status) || attempt >= attempts) return response;
    const delay = Math.max(backoff(attempt), retryAfterMs(response) ?? 0);
    if (Date.now() + delay >= deadline) return response;
    options.debug?.(`* HTTP ${response.status}; retrying in ${delay} ms`);
    await sleep(delay);
  }
}

/** The file, read as it is sent, each piece reported to `sent`. */
function fileBody(file: NonNullable<PreparedRequest["file"]>): Readable {
  const stream: Readable =
    file.path === "-" ? process.stdin : createReadStream(file.path, { highWaterMark: 256 * 1024 });
  const sent = file.sent;
  if (!sent) return stream;
  const counted = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      sent(chunk.length);
      done(null, chunk);
    },
  });
  stream.on("error", (error) => counted.destroy(error));
  return stream.pipe(counted);
}

function backoff(attempt: number): number {
  const ceiling = Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** (attempt - 1));
  return Math.round(ceiling / 2 + Math.random() * (ceiling / 2));
}

function retryAfterMs(response: HttpResponse): number | undefined {
  const value = header(response, "retry-after");
  if (value === undefined) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

export function header(response: HttpResponse, name: string): string | undefined {
  return response.headers.find(([key]) => key === name)?.[1];
}

function flattenHeaders(headers: Record<string, string | string[] | undefined>): [string, string][] {
  const out: [string, string][] = [];
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) out.push([name.toLowerCase(), one]);
  }
  return out;
}

function describeRequest(request: PreparedRequest, attempt: number): string {
  const lines = [
    `> ${request.method} ${redactUrl(request.url)}${attempt > 1 ? `  (attempt ${attempt})` : ""}`,
  ];
  for (const [name, value] of Object.entries(request.headers))
    lines.push(`> ${name}: ${redactHeader(name, value)}`);
  lines.push(">");
  if (request.body !== undefined) lines.push(`> ${redactBody(request.body)}`);
  return lines.join("\n");
}

function describeResponse(response: HttpResponse): string {
  const lines = [`< HTTP ${response.status} ${response.statusText}`];
  for (const [name, value] of response.headers) lines.push(`< ${name}: ${redactHeader(name, value)}`);
  lines.push("<");
  if (response.body.length > 0) lines.push(`< ${redactBody(response.body.toString("utf8"))}`);
  return lines.join("\n");
}
