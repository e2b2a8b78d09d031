import { type Context, note, write } from "../context";
import { CliError, exitCodes, usageError } from "../errors";
import { redactHeader } from "../http/redact";
import type { PreparedRequest } from "../http/request";
import type { HttpResponse } from "../http/send";
import { render } from "../output/render";
import type { ApiCommand } from "../spec/command-tree";

/* What the CLI prints of an answer: --query, --format, the raw exchange, a dry run. */

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

export async function output(
  ctx: Context,
  command: ApiCommand,
  response: HttpResponse,
  query: Query | undefined,
) {
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
export async function emit(ctx: Context, value: unknown, queried: boolean): Promise<void> {
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

export function parseJson(response: HttpResponse): unknown {
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

export function httpText(response: HttpResponse): Buffer {
  const head = [`HTTP/1.1 ${response.status} ${response.statusText}`.trimEnd()];
  for (const [name, value] of response.headers) head.push(`${name}: ${redactHeader(name, value)}`);
  const body = response.body.length > 0 ? Buffer.concat([response.body, Buffer.from("\n")]) : Buffer.alloc(0);
  return Buffer.concat([Buffer.from(`${head.join("\n")}\n\n`), body]);
}

export async function printDryRun(ctx: Context, request: PreparedRequest): Promise<void> {
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

/** --format parquet names a file format: only an export writes one. */
export const parquetIsForFiles = () =>
  usageError(
    "--format parquet is for a file the API answers with, such as svc datasets export",
    "use --format table, json, jsonl, yaml or csv here",
    "usage_error",
  );
