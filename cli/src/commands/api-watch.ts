import { Writable } from "node:stream";
import { createParser } from "eventsource-parser";
import { type Context, note, write } from "../context";
import { CliError, exitCodes } from "../errors";
import type { PreparedRequest } from "../http/request";
import { send } from "../http/send";
import type { Transport } from "../http/transport";
import type { ApiCommand } from "../spec/command-tree";
import { exchange } from "./api-exchange";
import { emit, type Query } from "./api-output";

/* `svc datasets watch PROJECT DATASET`: a dataset's live changes, one event a line, until Ctrl-C. */

interface VersionEvent {
  version: number;
  operation: string;
  actor: { kind: string; id: string };
  rowsInserted: number;
  rowsUpdated: number;
  rowsDeleted: number;
  rowIds: string[];
  rowIdsTruncated: boolean;
  createdAt: string;
}

const MAX_DELAY_MS = 10_000;

/**
 * Follows the stream: each event is printed as it arrives (a line of JSON in json and jsonl, a row in
 * table and csv, a document in yaml, the server's bytes in raw). A dropped connection, or a platform
 * that answers 5xx or 429 for a while, is retried with backoff and resumed with Last-Event-ID: nothing
 * is printed twice or missed. An error of the request itself (404, 401, 400) ends the command.
 */
export async function runWatch(
  ctx: Context,
  command: ApiCommand,
  first: PreparedRequest,
  transport: Transport,
  query: Query | undefined,
): Promise<void> {
  const printer = eventPrinter(ctx, query);
  let lastId: string | undefined;
  let failures = 0;
  const stop = new Promise<void>((resolve) => process.once("SIGINT", () => resolve()));
  const watching = (async () => {
    for (;;) {
      const request = resumed(first, lastId);
      const parser = createParser({
        onEvent: (message) => {
          if (message.id !== undefined) lastId = message.id;
          failures = 0;
          if (ctx.globals.format !== "raw") printer(JSON.parse(message.data) as VersionEvent);
        },
      });
      const decoder = new TextDecoder();
      const sink = new Writable({
        write(chunk: Buffer, _encoding, done) {
          if (ctx.globals.format === "raw") write(ctx, chunk);
          parser.feed(decoder.decode(chunk, { stream: true }));
          done();
        },
      });
      try {
        const response = await send(request, {
          transport,
          timeoutMs: ctx.settings.timeoutMs,
          debug: ctx.globals.debug ? (text) => ctx.io.stderr.write(`${text}\n`) : undefined,
          sink,
        });
        // An answer that is not the stream: the request's own error, reported as any command's is.
        if (response.status !== 200) await exchange(ctx, command, request, transport);
        note(ctx, `svc: the stream ended${lastId ? ` after version ${lastId}` : ""}; reconnecting`);
      } catch (error) {
        if (!(error instanceof CliError) || !retryable(error)) throw error;
        note(ctx, `svc: ${error.message}; reconnecting${lastId ? ` after version ${lastId}` : ""}`);
      }
      failures++;
      await new Promise((resolve) => setTimeout(resolve, backoff(failures)));
    }
  })();
  await Promise.race([stop, watching]);
}

/** The same request, resuming after the last event received. */
function resumed(request: PreparedRequest, lastId: string | undefined): PreparedRequest {
  const headers: Record<string, string> = { ...request.headers, accept: "text/event-stream" };
  if (lastId !== undefined) {
    headers["last-event-id"] = lastId;
    // Last-Event-ID wins over ?since=, which would otherwise replay what was already printed.
    const url = new URL(request.url);
    url.searchParams.delete("since");
    return { ...request, headers, url: url.toString() };
  }
  return { ...request, headers };
}

/** A connection that failed, or a platform that is down for a moment; not a request it refused. */
function retryable(error: CliError): boolean {
  if (error.exit === exitCodes.network) return true;
  return error.status !== undefined && (error.status === 429 || error.status >= 500);
}

function backoff(failures: number): number {
  const ceiling = Math.min(MAX_DELAY_MS, 250 * 2 ** Math.max(0, failures - 1));
  return Math.round(ceiling / 2 + Math.random() * (ceiling / 2));
}

/** How each event is printed, in the chosen format. */
function eventPrinter(ctx: Context, query: Query | undefined): (event: VersionEvent) => void {
  const { format } = ctx.globals;
  if (query) return (event) => write(ctx, `${JSON.stringify(query(event))}\n`);
  switch (format) {
    case "table":
      return tablePrinter(ctx);
    case "csv": {
      let headed = false;
      return (event) => {
        const record = flatRecord(event);
        if (!headed) write(ctx, `${Object.keys(record).join(",")}\r\n`);
        headed = true;
        write(ctx, `${Object.values(record).map(csvField).join(",")}\r\n`);
      };
    }
    case "yaml":
      return (event) => void emit(ctx, event, false).then(() => write(ctx, "---\n"));
    default:
      // json, jsonl and http: one compact JSON object per line, a line per event.
      return (event) => write(ctx, `${JSON.stringify(event)}\n`);
  }
}

/** A line per version under one header, for a person watching. */
function tablePrinter(ctx: Context): (event: VersionEvent) => void {
  const widths = [8, 10, 28, 9, 9, 9];
  const line = (cells: string[], last: string) =>
    `${cells.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join(" ")} ${last}`.trimEnd();
  let headed = false;
  return (event) => {
    if (!headed) {
      write(ctx, `${line(["VERSION", "OPERATION", "ACTOR", "INSERTED", "UPDATED", "DELETED"], "ROWS")}\n`);
      headed = true;
    }
    const rows = event.rowIds.join(" ") + (event.rowIdsTruncated ? " …" : "");
    const cells = [
      String(event.version),
      event.operation,
      `${event.actor.kind}:${event.actor.id}`,
      String(event.rowsInserted),
      String(event.rowsUpdated),
      String(event.rowsDeleted),
    ];
    write(ctx, `${line(cells, rows)}\n`);
  };
}

function flatRecord(event: VersionEvent): Record<string, unknown> {
  return {
    version: event.version,
    createdAt: event.createdAt,
    operation: event.operation,
    actor: event.actor,
    rowsInserted: event.rowsInserted,
    rowsUpdated: event.rowsUpdated,
    rowsDeleted: event.rowsDeleted,
    rowIds: event.rowIds,
    rowIdsTruncated: event.rowIdsTruncated,
  };
}

function csvField(value: unknown): string {
  const text =
    value === null || value === undefined ? "" : typeof value === "string" ? value : JSON.stringify(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
