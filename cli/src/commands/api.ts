import { statSync } from "node:fs";
import { Writable } from "node:stream";
import { resolveCredential } from "../auth/credentials";
import { type Context, note, write } from "../context";
import { CliError, exitCodes, usageError } from "../errors";
import { newIdempotencyKey, type PreparedRequest, prepareRequest } from "../http/request";
import { type HttpResponse, header, redactHeader, send } from "../http/send";
import { createTransport, type Transport } from "../http/transport";
import { recordsOf, render } from "../output/render";
import type { ApiCommand, Input } from "../spec/command-tree";

export type Query = (value: unknown) => unknown;

/** Compiles `--query` before anything is sent: a bad expression is a usage error. */
export async function compileQuery(expression: string | undefined): Promise<Query | undefined> {
  if (expression === undefined) return undefined;
  // compile() is exported by jmespath but missing from its type declarations.
  const jmespath = (await import("jmespath")) as unknown as {
    compile(expression: string): unknown;
    search(data: unknown, expression: string): unknown;
  };
  try {
    jmespath.compile(expression);
  } catch (error) {
    throw usageError(
      `--query is not a valid JMESPath expression: ${(error as Error).message}`,
      "see https://jmespath.org for the syntax",
      "invalid_query",
    );
  }
  return (value) => jmespath.search(value, expression);
}

/** Runs one operation of the API: flags → request → response → output. */
export async function runApiCommand(
  ctx: Context,
  command: ApiCommand,
  values: Map<Input, string | true>,
  json: string | undefined,
): Promise<void> {
  if (ctx.globals.format === "parquet" && !command.output.file) throw parquetIsForFiles();
  const query = await compileQuery(ctx.globals.query);
  const request = prepareRequest(ctx.tree, command, {
    values,
    json,
    baseUrl: ctx.settings.baseUrl,
    projectSlug: ctx.settings.projectSlug,
    readStdin: ctx.io.readStdin,
  });
  const scheme = ctx.tree.schemes.find((candidate) => candidate.name === command.security[0]);
  if (ctx.globals.dryRun) {
    if (scheme) request.headers.authorization = "Bearer REDACTED";
    await printDryRun(ctx, request);
    return;
  }
  if (scheme) {
    const credential = await resolveCredential(scheme, ctx.io.env);
    request.headers.authorization = `Bearer ${credential.token}`;
  }
  const transport = await createTransport(ctx.settings, new URL(request.url), ctx.io.env, (text) =>
    ctx.io.stderr.write(text),
  );
  try {
    if (command.output.file) {
      await download(ctx, command, request, transport);
      return;
    }
    if (command.upload) {
      await uploadFile(ctx, command, values, request, transport, query);
      return;
    }
    const pageAll = command.paginated && (ctx.globals.pageAll || ctx.globals.maxItems !== undefined);
    if (pageAll) await pageThrough(ctx, command, request, transport, query);
    else await output(ctx, command, await exchange(ctx, command, request, transport), query);
  } finally {
    await transport.close();
  }
}

/**
 * A file the API answers with (an export): the global --format picks it (csv, the default, jsonl or
 * parquet), and the body goes to standard output as it arrives, so that a million rows never sit in
 * memory: `svc datasets export --dataset-slug golden --format csv > golden.csv`.
 */
async function download(
  ctx: Context,
  command: ApiCommand,
  request: PreparedRequest,
  transport: Transport,
): Promise<void> {
  const { format } = ctx.globals;
  if (
    format !== "csv" &&
    format !== "jsonl" &&
    format !== "parquet" &&
    format !== "table" &&
    format !== "json"
  ) {
    throw usageError(
      `svc ${command.resource} ${command.name} writes csv, jsonl or parquet, not ${format}`,
      "use --format csv, --format jsonl or --format parquet",
      "usage_error",
    );
  }
  if (format === "parquet" && ctx.io.stdout.isTTY) {
    throw usageError(
      "a Parquet file is binary and standard output is a terminal",
      `send it to a file: svc ${command.resource} ${command.name} … --format parquet > ${command.resource}.parquet`,
      "usage_error",
    );
  }
  const url = new URL(request.url);
  url.searchParams.set("format", format === "jsonl" || format === "parquet" ? format : "csv");
  request.url = url.toString();
  request.headers.accept = "*/*";
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      if (ctx.globals.quiet || ctx.io.stdout.write(chunk) !== false) done();
      else process.stdout.once("drain", () => done());
    },
  });
  await exchange(ctx, command, request, transport, sink);
}

const MEDIA_TYPE_OF_EXTENSION: Record<string, string> = {
  csv: "text/csv",
  jsonl: "application/x-ndjson",
  ndjson: "application/x-ndjson",
  json: "application/json",
  parquet: "application/vnd.apache.parquet",
};

interface ImportState {
  importId: string;
  state: string;
  bytesRead: number;
  rowsRead: number;
  error?: { code: string; error: string; details?: unknown };
}

/**
 * An upload (a file import): streams the file as the body, then follows the import the answer
 * points at until it ends, with a progress bar on standard error when that is a terminal. The
 * import's outcome is the output; a failed import exits 1 with its reason (and line).
 */
async function uploadFile(
  ctx: Context,
  command: ApiCommand,
  values: Map<Input, string | true>,
  request: PreparedRequest,
  transport: Transport,
  query: Query | undefined,
): Promise<void> {
  const input = command.inputs.find(
    (candidate) => candidate.name === "file" && candidate.location === "file",
  );
  const formatInput = command.inputs.find((candidate) => candidate.name === "fileFormat");
  const path = input ? values.get(input) : undefined;
  const named = formatInput ? values.get(formatInput) : undefined;
  if (typeof path !== "string")
    throw usageError(
      "missing required flag --file",
      `see \`svc ${command.resource} ${command.name} --help\``,
    );
  const stdin = path === "-";
  const extension =
    typeof named === "string" ? named : stdin ? "" : (path.split(".").pop()?.toLowerCase() ?? "");
  const mediaType = MEDIA_TYPE_OF_EXTENSION[extension];
  if (!mediaType || !(command.upload ?? []).includes(mediaType)) {
    throw usageError(
      typeof named === "string"
        ? `--file-format ${named}: the format is csv, jsonl, json or parquet`
        : stdin
          ? "--file -: standard input has no name to say its format; add --file-format csv, jsonl, json or parquet"
          : `--file ${path}: the name must end in .csv, .jsonl, .ndjson, .json or .parquet, which says the file's format`,
      stdin ? undefined : "rename the file, give --file-format, or save it in one of those formats",
    );
  }
  if (stdin && ctx.io.stdinIsTTY)
    throw usageError(
      "--file -: standard input is a terminal; pipe the file in, as in `svc … --file - < data.csv`",
    );
  let size: number | undefined;
  try {
    size = stdin ? undefined : statSync(path).size;
  } catch (error) {
    throw usageError(
      `--file ${path}: ${(error as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : (error as Error).message}`,
    );
  }
  const bar =
    ctx.io.stderr.isTTY && !ctx.globals.quiet
      ? progressBar(ctx, stdin ? "standard input" : path, size)
      : undefined;
  let sent = 0;
  request.headers["content-type"] = mediaType;
  if (size !== undefined) request.headers["content-length"] = String(size);
  request.file = {
    path,
    sent: (bytes) => {
      sent += bytes;
      bar?.show("uploading", sent, undefined);
    },
  };
  const first = await exchange(ctx, command, request, transport);
  const location = header(first, "location");
  let current = parseJson(first) as ImportState;
  while (location && (current.state === "receiving" || current.state === "running")) {
    // Once the whole file is read, its rows are being saved as one version.
    bar?.show(
      size !== undefined && current.bytesRead >= size ? "saving" : "importing",
      current.bytesRead,
      current.rowsRead,
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    const poll: PreparedRequest = {
      method: "GET",
      url: new URL(location, request.url).toString(),
      headers: {
        accept: "application/json",
        "user-agent": request.headers["user-agent"] ?? "svc",
        ...(request.headers.authorization ? { authorization: request.headers.authorization } : {}),
      },
    };
    current = parseJson(await exchange(ctx, command, poll, transport)) as ImportState;
  }
  bar?.done(current.state === "succeeded" ? `imported ${current.rowsRead} rows` : "failed");
  if (current.state === "failed" && current.error) {
    throw new CliError(current.error.error, {
      exit: exitCodes.api,
      code: current.error.code,
      details: { importId: current.importId, ...(current.error.details as object | undefined) },
      hint: "fix the file and import it again; nothing was written",
    });
  }
  await emit(ctx, query ? query(current) : current, query !== undefined);
}

/** One line on standard error, redrawn in place: what is happening, a bar, bytes and rows. */
/** A progress bar on standard error; of unknown size (standard input), it counts bytes instead. */
function progressBar(ctx: Context, path: string, size: number | undefined) {
  const name = path.split(/[\\/]/).pop() ?? path;
  const width = 24;
  let last = 0;
  return {
    show(phase: string, bytes: number, rows: number | undefined) {
      const now = Date.now();
      if (now - last < 100) return;
      last = now;
      const rowsText = rows === undefined ? "" : `  ${rows.toLocaleString("en-US")} rows`;
      if (size === undefined) {
        ctx.io.stderr.write(`\r\u001b[2K${phase} ${name} ${formatBytes(bytes)}${rowsText}`);
        return;
      }
      const share = size > 0 ? Math.min(1, bytes / size) : 1;
      const filled = Math.round(share * width);
      ctx.io.stderr.write(
        `\r\u001b[2K${phase} ${name} [${"#".repeat(filled)}${"-".repeat(width - filled)}] ${Math.floor(share * 100)}%${rowsText}`,
      );
    },
    done(outcome: string) {
      ctx.io.stderr.write(`\r\u001b[2K${name}: ${outcome}\n`);
    },
  };
}

async function exchange(
  ctx: Context,
  command: ApiCommand,
  request: PreparedRequest,
  transport: Transport,
  sink?: NodeJS.WritableStream,
): Promise<HttpResponse> {
  const debug = ctx.globals.debug ? (text: string) => ctx.io.stderr.write(`${text}\n`) : undefined;
  const response = await send(request, {
    transport,
    timeoutMs: ctx.settings.timeoutMs,
    debug,
    ...(sink ? { sink } : {}),
  });
  if (response.status >= 200 && response.status < 300) return response;
  throw apiError(command, response, transport);
}

async function output(ctx: Context, command: ApiCommand, response: HttpResponse, query: Query | undefined) {
  const { format } = ctx.globals;
  if (format === "http") {
    write(ctx, httpText(response));
    return;
  }
  if (format === "raw" && !query) {
    write(ctx, response.body);
    return;
  }
  if (response.body.length === 0 || command.output.status === 204) return;
  const value = parseJson(response);
  await emit(ctx, query ? query(value) : value, query !== undefined);
}

/** Writes a value in the chosen format (raw: strings bare, the rest as compact JSON). */
async function emit(ctx: Context, value: unknown, queried: boolean): Promise<void> {
  const { format } = ctx.globals;
  if (format === "parquet") throw parquetIsForFiles();
  if (format === "raw" || format === "http") {
    write(ctx, typeof value === "string" ? `${value}\n` : `${JSON.stringify(value)}\n`);
    return;
  }
  if (queried && value === null && format === "table") return;
  write(
    ctx,
    await render(value, {
      format,
      tty: ctx.io.stdout.isTTY,
      color: ctx.io.stdout.isTTY && !ctx.settings.noColor,
      columns: ctx.io.stdout.columns,
    }),
  );
}

/** `--page-all`: follows nextCursor; jsonl streams each item, the other formats get one list. */
async function pageThrough(
  ctx: Context,
  command: ApiCommand,
  first: PreparedRequest,
  transport: Transport,
  query: Query | undefined,
): Promise<void> {
  const max = ctx.globals.maxItems ?? Number.POSITIVE_INFINITY;
  const stream = ctx.globals.format === "jsonl" && !query;
  const items: unknown[] = [];
  let count = 0;
  let request = first;
  while (count < max) {
    const response = await exchange(ctx, command, request, transport);
    if (ctx.globals.format === "raw" || ctx.globals.format === "http") {
      write(ctx, ctx.globals.format === "http" ? httpText(response) : response.body);
    }
    const page = parseJson(response) as { items?: unknown[]; nextCursor?: string | null; hasMore?: boolean };
    for (const item of recordsOf(page) ?? []) {
      if (count >= max) break;
      count++;
      if (stream) write(ctx, `${JSON.stringify(item)}\n`);
      else items.push(item);
    }
    if (!page.hasMore || !page.nextCursor) break;
    request = withCursor(command, request, page.nextCursor);
  }
  if (stream || ctx.globals.format === "raw" || ctx.globals.format === "http") return;
  await emit(ctx, query ? query(items) : items, query !== undefined);
}

/**
 * The next page's request: the cursor goes where the operation takes it, in the query or the body.
 * It is another request, so it gets its own Idempotency-Key: the API answers the same key with a
 * different body with 409 idempotency_key_reused (the retries of one page still share one key).
 */
export function withCursor(command: ApiCommand, request: PreparedRequest, cursor: string): PreparedRequest {
  const headers = { ...request.headers };
  if (headers["idempotency-key"] !== undefined) headers["idempotency-key"] = newIdempotencyKey();
  const inBody = command.inputs.some((input) => input.location === "body" && input.name === "cursor");
  if (inBody && request.body !== undefined) {
    return { ...request, headers, body: JSON.stringify({ ...JSON.parse(request.body), cursor }) };
  }
  const url = new URL(request.url);
  url.searchParams.set("cursor", cursor);
  return { ...request, headers, url: url.toString() };
}

function parseJson(response: HttpResponse): unknown {
  try {
    return JSON.parse(response.body.toString("utf8"));
  } catch {
    throw new CliError(`the API answered HTTP ${response.status} with a body that is not JSON`, {
      exit: exitCodes.api,
      code: "invalid_response",
      status: response.status,
      hint: "use --format raw to see it",
    });
  }
}

function httpText(response: HttpResponse): Buffer {
  const head = [`HTTP/1.1 ${response.status} ${response.statusText}`.trimEnd()];
  for (const [name, value] of response.headers) head.push(`${name}: ${redactHeader(name, value)}`);
  const body = response.body.length > 0 ? Buffer.concat([response.body, Buffer.from("\n")]) : Buffer.alloc(0);
  return Buffer.concat([Buffer.from(`${head.join("\n")}\n\n`), body]);
}

async function printDryRun(ctx: Context, request: PreparedRequest): Promise<void> {
  const { format } = ctx.globals;
  if (format === "json" || format === "jsonl" || format === "yaml") {
    const body = request.body === undefined ? undefined : JSON.parse(request.body);
    const value = { method: request.method, url: request.url, headers: request.headers, body: body ?? null };
    await emit(ctx, value, false);
    return;
  }
  const lines = [`${request.method} ${request.url}`];
  for (const [name, value] of Object.entries(request.headers)) lines.push(`${name}: ${value}`);
  lines.push("");
  if (request.body !== undefined) lines.push(request.body);
  write(ctx, `${lines.join("\n")}\n`);
  note(ctx, "svc: dry run: nothing was sent");
}

const hints: Record<string, (command: ApiCommand) => string> = {
  unauthenticated: () => "check SVC_API_KEY or run `svc auth login`",
  forbidden: () => "this key's role may not do this; use a key with a higher role",
  not_found: (command) =>
    command.inputs.some((input) => input.name === "datasetSlug")
      ? "check the slugs with `svc projects list` and `svc datasets list`"
      : "check the names with `svc projects list`",
  validation_failed: (command) => `see \`svc ${command.resource} ${command.name} --help\``,
  unknown_column: () => "list the active columns with `svc datasets list-columns`",
  version_mismatch: () =>
    "read the row again with `svc datasets get-row` and retry with its version in --if-match",
  conflict: () => "choose another name",
  idempotency_key_reused: () => "send the request again without reusing the key",
  rate_limited: () => "too many requests: wait and retry",
  service_unavailable: () => "the platform is not answering right now; retry shortly",
  upstream_timeout: () => "the platform took too long; retry shortly",
};

/** An error response: the platform's error shape, or something else (a proxy's page, say). */
function apiError(command: ApiCommand, response: HttpResponse, transport: Transport): CliError {
  let body: { error?: unknown; code?: unknown; requestId?: unknown; details?: unknown } | undefined;
  try {
    body = JSON.parse(response.body.toString("utf8"));
  } catch {
    body = undefined;
  }
  const requestId = header(response, "x-request-id");
  const auth = response.status === 401 || response.status === 403;
  if (!body || typeof body.code !== "string") {
    const fromProxy = transport.proxy !== undefined && requestId === undefined;
    const snippet = response.body
      .toString("utf8")
      .replace(/<[^>]*>/g, " ")
      .replace(/\s+/g, " ")
      .trim();
    return new CliError(
      `${fromProxy ? `the proxy ${transport.proxy} answered` : "the server answered"} HTTP ${response.status} ${response.statusText}${snippet ? `: ${snippet.slice(0, 160)}` : ""}`,
      {
        exit: fromProxy ? exitCodes.network : auth ? exitCodes.auth : exitCodes.api,
        code: fromProxy ? "proxy_error" : "http_error",
        status: response.status,
        hint: fromProxy
          ? "check SVC_PROXY / HTTPS_PROXY / HTTP_PROXY, or add the host to NO_PROXY"
          : "is SVC_BASE_URL the platform's address?",
      },
    );
  }
  const code = body.code;
  const init: ConstructorParameters<typeof CliError>[1] = {
    exit: auth ? exitCodes.auth : exitCodes.api,
    code,
    status: response.status,
  };
  const hint = hints[code]?.(command);
  if (hint) init.hint = hint;
  const id = typeof body.requestId === "string" ? body.requestId : requestId;
  if (id) init.requestId = id;
  if (body.details !== undefined) init.details = body.details;
  return new CliError(typeof body.error === "string" ? body.error : `HTTP ${response.status}`, init);
}

function formatBytes(bytes: number): string {
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(0)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** --format parquet names a file format: only an export writes one. */
export const parquetIsForFiles = () =>
  usageError(
    "--format parquet is for a file the API answers with, such as svc datasets export",
    "use --format table, json, jsonl, yaml or csv here",
    "usage_error",
  );
