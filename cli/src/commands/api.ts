import { resolveCredential } from "../auth/credentials";
import { type Context, write } from "../context";
import { type PreparedRequest, prepareRequest } from "../http/request";
import { createTransport, type Transport } from "../http/transport";
import { recordsOf } from "../output/render";
import type { ApiCommand, Input } from "../spec/command-tree";
import { withCursor } from "./api-cursor";
import { exchange } from "./api-exchange";
import { download, uploadFile } from "./api-files";
import {
  compileQuery,
  emit,
  httpText,
  output,
  parquetIsForFiles,
  parseJson,
  printDryRun,
  type Query,
} from "./api-output";

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
      await download(ctx, command, values, request, transport);
      return;
    }
    if (command.upload) {
      await uploadFile(ctx, command, values, request, transport, query);
      return;
    }
    if (command.events) {
      const { runWatch } = await import("./api-watch");
      await runWatch(ctx, command, request, transport, query);
      return;
    }
    const gate = gateInput(command);
    const gated = gate && values.get(gate);
    if (gated === true || gated === "true") {
      const { runRegressionGate } = await import("./api-gate");
      await runRegressionGate(ctx, command, values, request, transport, query);
      return;
    }
    const pageAll = command.paginated && (ctx.globals.pageAll || ctx.globals.maxItems !== undefined);
    if (pageAll) await pageThrough(ctx, command, request, transport, query);
    else await output(ctx, command, await exchange(ctx, command, request, transport), query);
  } finally {
    await transport.close();
  }
}

/** `--fail-on-regression`, on the commands that have it. */
const gateInput = (command: ApiCommand) =>
  command.inputs.find((input) => input.location === "local" && input.name === "failOnRegression");

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
