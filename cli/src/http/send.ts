import { createReadStream } from "node:fs";
import { type Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { CliError, exitCodes } from "../errors";
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

const timeoutError = (request: PreparedRequest, timeoutMs: number): CliError =>
  new CliError(`no answer from ${new URL(request.url).origin} within ${timeoutMs / 1000} s`, {
    exit: exitCodes.network,
    code: "timeout",
    hint: "raise SVC_TIMEOUT_SECS, or check that the platform is answering",
  });

const TLS_CODES = new Set([
  "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
  "UNABLE_TO_GET_ISSUER_CERT",
  "UNABLE_TO_GET_ISSUER_CERT_LOCALLY",
  "SELF_SIGNED_CERT_IN_CHAIN",
  "DEPTH_ZERO_SELF_SIGNED_CERT",
  "CERT_HAS_EXPIRED",
  "CERT_NOT_YET_VALID",
  "ERR_TLS_CERT_ALTNAME_INVALID",
  "CERT_UNTRUSTED",
  "CERT_REJECTED",
]);

/** Classifies an error of the transport: what to tell the person, and whether trying again may help. */
function networkError(
  error: unknown,
  request: PreparedRequest,
  options: SendOptions,
): { error: CliError; retryable: boolean } {
  const origin = new URL(request.url).origin;
  const chain = causes(error);
  const codes = chain.map((inner) => (inner as { code?: string }).code).filter(Boolean) as string[];
  const names = chain.map((inner) => (inner as { name?: string }).name);
  const messages = chain.map((inner) => (inner as { message?: string }).message ?? "");
  const network = (message: string, code: string, hint: string, retryable = false) => ({
    error: new CliError(message, { exit: exitCodes.network, code, hint }),
    retryable,
  });
  if (names.includes("TimeoutError") || codes.includes("UND_ERR_ABORTED") || names.includes("AbortError")) {
    return { error: timeoutError(request, options.timeoutMs), retryable: false };
  }
  const tlsCode = codes.find((code) => TLS_CODES.has(code) || code.startsWith("ERR_SSL"));
  if (tlsCode) {
    return network(
      `TLS verification of ${origin} failed (${tlsCode})`,
      "tls_error",
      "set SVC_CA_BUNDLE (or SSL_CERT_FILE) to the PEM file of the CA that signed its certificate; SVC_INSECURE=1 skips verification",
    );
  }
  const proxyStatus = messages.map((message) => /Proxy response \((\d+)\)/.exec(message)?.[1]).find(Boolean);
  if (proxyStatus) {
    return network(
      `the proxy ${options.transport.proxy ?? ""} refused to connect to ${origin} (HTTP ${proxyStatus})`,
      "proxy_error",
      "check SVC_PROXY / HTTPS_PROXY / HTTP_PROXY, or add the host to NO_PROXY",
    );
  }
  const via = options.transport.proxy ? ` through the proxy ${options.transport.proxy}` : "";
  const fix = options.transport.proxy
    ? "check that the proxy is running (SVC_PROXY / HTTPS_PROXY / HTTP_PROXY) or bypass it with NO_PROXY"
    : "check that the platform is running and that SVC_BASE_URL is right (`npm start` serves http://127.0.0.1:8080)";
  if (codes.includes("ENOTFOUND") || codes.includes("EAI_AGAIN")) {
    return network(`cannot resolve the host of ${origin}${via}`, "connection_failed", fix, true);
  }
  if (codes.includes("ECONNREFUSED")) {
    return network(`cannot connect to ${origin}${via}: connection refused`, "connection_failed", fix, true);
  }
  const code = codes[0] ?? names[0] ?? "error";
  return network(
    `cannot reach ${origin}${via} (${code}: ${messages[0] ?? ""})`,
    "connection_failed",
    fix,
    true,
  );
}

function causes(error: unknown): unknown[] {
  const chain: unknown[] = [];
  let current: unknown = error;
  while (current && chain.length < 8) {
    chain.push(current);
    if (current instanceof AggregateError) chain.push(...current.errors);
    current = (current as { cause?: unknown }).cause;
  }
  return chain;
}

const SECRET_HEADERS = new Set(["authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key"]);
const SECRET_QUERY = /key|token|secret|password|auth|signature/i;

/** A URL with the values of credential-like query parameters replaced. */
export function redactUrl(raw: string): string {
  const url = new URL(raw);
  for (const name of [...url.searchParams.keys()]) {
    if (SECRET_QUERY.test(name)) url.searchParams.set(name, "REDACTED");
  }
  if (url.password) url.password = "REDACTED";
  return url.toString();
}

export function redactHeader(name: string, value: string): string {
  const lower = name.toLowerCase();
  if (!SECRET_HEADERS.has(lower) && !/api-?key|token|secret/.test(lower)) return value;
  const scheme = /^(Bearer|Basic|Token)\s/i.exec(value)?.[1];
  return scheme ? `${scheme} REDACTED` : "REDACTED";
}

/**
 * Field names whose values are credentials, compared without case, `_` or `-`: `token`, `apiKey`,
 * `access_token`, `refresh_token`, `client_secret`, `password`, `privateKey`, and any name ending in
 * one of those (`idToken`, `sessionToken`, `webhookSecret`). `maskedToken` is already masked.
 */
const SECRET_FIELD = /(token|secret|password|passwd|apikey|privatekey|authorization|credentials?)$/;
const NOT_SECRET = new Set(["maskedtoken"]);

export function isSecretField(name: string): boolean {
  const normalized = name.toLowerCase().replace(/[-_]/g, "");
  return SECRET_FIELD.test(normalized) && !NOT_SECRET.has(normalized);
}

function redactValue(value: unknown, found: { any: boolean }): unknown {
  if (Array.isArray(value)) return value.map((item) => redactValue(item, found));
  if (value === null || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const [name, inner] of Object.entries(value)) {
    if (isSecretField(name) && inner !== null && typeof inner !== "object") {
      out[name] = "REDACTED";
      found.any = true;
    } else out[name] = redactValue(inner, found);
  }
  return out;
}

const FORM = /^[\w.%-]+=[^&\s]*(&[\w.%-]+=[^&\s]*)*$/;

/**
 * A body for the debug log with the values of credential fields replaced: JSON at any depth (shown
 * as sent when nothing had to be hidden), a form body, and, for text that is neither, any
 * `"name": "value"` pair of such a field.
 */
export function redactBody(text: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  if (parsed !== undefined) {
    const found = { any: false };
    const redacted = redactValue(parsed, found);
    return found.any ? JSON.stringify(redacted) : text;
  }
  if (FORM.test(text)) {
    return text
      .split("&")
      .map((pair) => {
        const [name = "", value] = pair.split("=");
        return isSecretField(safeDecode(name)) && value ? `${name}=REDACTED` : pair;
      })
      .join("&");
  }
  return text.replace(/"([^"\\]{1,64})"(\s*:\s*)"(?:[^"\\]|\\.)*"/g, (pair, name: string, colon: string) =>
    isSecretField(name) ? `"${name}"${colon}"REDACTED"` : pair,
  );
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, " "));
  } catch {
    return text;
  }
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
