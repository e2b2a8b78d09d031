import { SvcError } from "./errors.js";

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** The part of `fetch` the client uses; pass your own to add a proxy, logging or a test double. */
export type FetchLike = (url: string, init: RequestInit) => Promise<Response>;

/** Per-call settings, accepted as the last argument of every method. */
export interface RequestOptions {
  /** Time allowed for each attempt (connecting, waiting and reading the answer), in milliseconds. */
  timeoutMs?: number | undefined;
  /** Cancels the call, including its retries and the waits between them. */
  signal?: AbortSignal | undefined;
  /** Retries after the first attempt, for this call only. */
  maxRetries?: number | undefined;
  /** The `Idempotency-Key` of a POST, PATCH or DELETE; by default one is generated per call. */
  idempotencyKey?: string | undefined;
  /** Sent as `X-Request-Id`; the API echoes it and quotes it in errors. */
  requestId?: string | undefined;
  /** Extra headers; they win over the client's own (for example another `Authorization`). */
  headers?: Record<string, string> | undefined;
}

export interface TransportConfig {
  apiKey: string | undefined;
  baseUrl: string;
  timeoutMs: number;
  maxRetries: number;
  fetch: FetchLike;
}

/** What a request's body may be, as `fetch` takes it. */
export type FileData = NonNullable<RequestInit["body"]>;

export interface ApiRequest {
  method: HttpMethod;
  path: string;
  query?: object | undefined;
  body?: unknown;
  /** A file sent as the body instead of JSON; one that can be read only once is not retried. */
  file?: { data: FileData; contentType: string; replayable: boolean } | undefined;
  headers?: Record<string, string | number | boolean | undefined> | undefined;
  options?: RequestOptions | undefined;
}

const RETRYABLE_STATUSES = new Set([408, 429, 502, 503, 504]);
const WRITE_METHODS = new Set<HttpMethod>(["POST", "PUT", "PATCH", "DELETE"]);
const INITIAL_BACKOFF_MS = 500;
const MAX_BACKOFF_MS = 8_000;
/** A `Retry-After` longer than this is not waited for: the error goes back to the caller instead. */
const MAX_RETRY_AFTER_MS = 60_000;

/** A dataset's part of a path: `/v1/projects/{project}/datasets/{dataset}`, then anything. */
const DATASET_PATH = /^\/v1\/projects\/([^/?]+)\/datasets\/([^/?]+)(?:[/?]|$)/;
/** The datasets whose last written version a client remembers; the oldest is forgotten beyond it. */
const REMEMBERED_DATASETS = 1_000;

/**
 * Sends one logical call: builds the request, retries what is safe to retry, and maps errors. It
 * remembers the version each write to a dataset answered, and sends it as `X-Svc-Min-Version` on the
 * reads of that dataset that follow, so that a read never misses this client's own write, even when
 * the platform serves reads from a standby a little behind the primary.
 */
export class Transport {
  readonly #config: TransportConfig;
  readonly #writtenVersions = new Map<string, number>();

  constructor(config: TransportConfig) {
    this.#config = config;
  }

  async request<T>(request: ApiRequest): Promise<T> {
    return (await this.#send(request, "json")) as T;
  }

  /** A call whose answer is a file: the response with its status checked and its body not yet read. */
  async download(request: ApiRequest): Promise<Response> {
    return (await this.#send(request, "raw")) as Response;
  }

  async #send(request: ApiRequest, answer: "json" | "raw"): Promise<unknown> {
    const options = request.options ?? {};
    const timeoutMs = options.timeoutMs ?? this.#config.timeoutMs;
    const url = this.#url(request.path, request.query);
    const headers = this.#headers(request, options);
    const body = request.file
      ? request.file.data
      : request.body === undefined
        ? undefined
        : JSON.stringify(request.body);
    // A stream is gone once sent: no second attempt could send it again.
    const maxRetries =
      request.file?.replayable === false ? 0 : (options.maxRetries ?? this.#config.maxRetries);

    for (let attempt = 0; ; attempt++) {
      options.signal?.throwIfAborted();
      const outcome = await this.#attempt(
        url,
        { method: request.method, headers, body },
        timeoutMs,
        options.signal,
        answer,
      );
      if (outcome.ok) {
        if (WRITE_METHODS.has(request.method)) this.#noteWrite(request.path, outcome.value);
        return outcome.value;
      }
      const delay = attempt < maxRetries ? retryDelayMs(outcome, attempt) : undefined;
      if (delay === undefined) throw outcome.error;
      await sleep(delay, options.signal);
    }
  }

  /** Remembers the version a write to a dataset answered (`version` in its answer), the highest seen. */
  #noteWrite(path: string, answer: unknown): void {
    const dataset = datasetOf(path);
    const version = (answer as { version?: unknown } | undefined)?.version;
    if (dataset === undefined || typeof version !== "number" || !Number.isInteger(version)) return;
    const known = this.#writtenVersions.get(dataset) ?? -1;
    this.#writtenVersions.delete(dataset);
    this.#writtenVersions.set(dataset, Math.max(known, version));
    if (this.#writtenVersions.size > REMEMBERED_DATASETS) {
      const oldest = this.#writtenVersions.keys().next().value;
      if (oldest !== undefined) this.#writtenVersions.delete(oldest);
    }
  }

  #url(path: string, query: object | undefined): string {
    const search = new URLSearchParams();
    for (const [key, value] of Object.entries(query ?? {})) {
      for (const item of Array.isArray(value) ? value : [value]) {
        if (item !== undefined && item !== null) search.append(key, String(item));
      }
    }
    const text = search.toString();
    return `${this.#config.baseUrl}${path}${text ? `?${text}` : ""}`;
  }

  #headers(request: ApiRequest, options: RequestOptions): Record<string, string> {
    const headers: Record<string, string> = { accept: "application/json" };
    if (this.#config.apiKey) headers.authorization = `Bearer ${this.#config.apiKey}`;
    if (request.file) headers["content-type"] = request.file.contentType;
    else if (request.body !== undefined) headers["content-type"] = "application/json";
    if (WRITE_METHODS.has(request.method)) {
      headers["idempotency-key"] = options.idempotencyKey ?? newIdempotencyKey();
    }
    if (options.requestId) headers["x-request-id"] = options.requestId;
    if (request.method === "GET") {
      const dataset = datasetOf(request.path);
      const written = dataset === undefined ? undefined : this.#writtenVersions.get(dataset);
      if (written !== undefined) headers["x-svc-min-version"] = String(written);
    }
    for (const [name, value] of Object.entries(request.headers ?? {})) {
      if (value !== undefined) headers[name.toLowerCase()] = String(value);
    }
    for (const [name, value] of Object.entries(options.headers ?? {})) headers[name.toLowerCase()] = value;
    return headers;
  }

  async #attempt(
    url: string,
    init: { method: HttpMethod; headers: Record<string, string>; body: FileData | undefined },
    timeoutMs: number,
    signal: AbortSignal | undefined,
    answer: "json" | "raw",
  ): Promise<Outcome> {
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    const onAbort = () => controller.abort(signal?.reason);
    signal?.addEventListener("abort", onAbort, { once: true });
    try {
      const response = await this.#config.fetch(url, {
        method: init.method,
        headers: init.headers,
        // A stream as the body needs half-duplex in Node's fetch.
        ...(init.body === undefined ? {} : { body: init.body, duplex: "half" }),
        signal: controller.signal,
      } as RequestInit);
      // A file's body is the caller's to read, at its own pace: the time limit covers the answer's start.
      if (answer === "raw" && response.ok) return { ok: true, value: response };
      const text = await response.text();
      if (!response.ok) {
        const error = SvcError.fromResponse(
          response.status,
          response.statusText,
          text,
          response.headers.get("x-request-id"),
        );
        return {
          ok: false,
          error,
          retryable: RETRYABLE_STATUSES.has(response.status),
          retryAfter: response.headers.get("retry-after"),
        };
      }
      return { ok: true, value: parseBody(response.status, text, response.headers.get("x-request-id")) };
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      if (error instanceof SvcError) throw error;
      const failure = timedOut
        ? new SvcError({
            status: 0,
            code: "timeout",
            message: `No answer from ${url} within ${timeoutMs} ms`,
            cause: error,
          })
        : new SvcError({
            status: 0,
            code: "connection_error",
            message: `Could not reach ${url}: ${describeCause(error)}`,
            cause: error,
          });
      return { ok: false, error: failure, retryable: true, retryAfter: null };
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
    }
  }
}

/** `project/dataset` of a path under a dataset, as sent (slugs are already encoded in paths). */
function datasetOf(path: string): string | undefined {
  const match = DATASET_PATH.exec(path);
  return match ? `${match[1]}/${match[2]}` : undefined;
}

type Outcome =
  | { ok: true; value: unknown }
  | { ok: false; error: SvcError; retryable: boolean; retryAfter: string | null };

function parseBody(status: number, text: string, requestId: string | null): unknown {
  if (status === 204 || text.trim() === "") return undefined;
  try {
    return JSON.parse(text);
  } catch (cause) {
    throw new SvcError({
      status,
      code: "invalid_response",
      message: `The API answered ${status} with a body that is not JSON`,
      requestId: requestId ?? undefined,
      cause,
    });
  }
}

/** How long to wait before the next attempt, or undefined when this failure is not retried. */
function retryDelayMs(outcome: Extract<Outcome, { ok: false }>, attempt: number): number | undefined {
  if (!outcome.retryable) return undefined;
  const retryAfter = parseRetryAfter(outcome.retryAfter);
  if (retryAfter !== undefined) return retryAfter <= MAX_RETRY_AFTER_MS ? retryAfter : undefined;
  const ceiling = Math.min(MAX_BACKOFF_MS, INITIAL_BACKOFF_MS * 2 ** attempt);
  return ceiling / 2 + Math.random() * (ceiling / 2);
}

/** `Retry-After` as seconds or an HTTP date, in milliseconds from now. */
export function parseRetryAfter(value: string | null): number | undefined {
  if (value === null || value.trim() === "") return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** 128 random bits; `getRandomValues` also exists where `randomUUID` does not (plain-HTTP pages). */
export function newIdempotencyKey(): string {
  const bytes = new Uint8Array(16);
  const crypto = (globalThis as { crypto?: { getRandomValues?: (array: Uint8Array) => Uint8Array } }).crypto;
  if (crypto?.getRandomValues) crypto.getRandomValues(bytes);
  else for (let i = 0; i < bytes.length; i++) bytes[i] = Math.floor(Math.random() * 256);
  return `svc_idem_${Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("")}`;
}

function describeCause(error: unknown): string {
  if (error instanceof Error) {
    const cause = error.cause;
    if (cause instanceof Error) return `${error.message} (${cause.message})`;
    return error.message;
  }
  return String(error);
}

/** Encodes one path parameter so that a `/` or `?` in it stays inside its segment. */
export function encodePath(value: string | number): string {
  return encodeURIComponent(String(value));
}
