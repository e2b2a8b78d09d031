import { statSync } from "node:fs";
import { Writable } from "node:stream";
import type { Context } from "../context";
import { CliError, exitCodes, usageError } from "../errors";
import type { PreparedRequest } from "../http/request";
import { header } from "../http/send";
import type { Transport } from "../http/transport";
import type { ApiCommand, Input } from "../spec/command-tree";
import { exchange } from "./api-exchange";
import { emit, parseJson, type Query } from "./api-output";

/* Operations whose body is a file: an export to standard output, an import with its progress. */

/**
 * A file the API answers with (an export): the global --format picks it (csv, the default, jsonl or
 * parquet), and the body goes to standard output as it arrives, so that a million rows never sit in
 * memory: `svc datasets export --dataset-slug golden --format csv > golden.csv`.
 */
export async function download(
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
export async function uploadFile(
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

function formatBytes(bytes: number): string {
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(0)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
