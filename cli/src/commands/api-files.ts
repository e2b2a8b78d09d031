import { once } from "node:events";
import { createWriteStream, lstatSync, renameSync, rmSync, statSync } from "node:fs";
import { basename, dirname, extname, join } from "node:path";
import { Writable } from "node:stream";
import { type Context, note } from "../context";
import { CliError, exitCodes, usageError } from "../errors";
import type { PreparedRequest } from "../http/request";
import { type HttpResponse, header } from "../http/send";
import type { Transport } from "../http/transport";
import type { ApiCommand, Input } from "../spec/command-tree";
import { exchange } from "./api-exchange";
import { emit, parseJson, type Query } from "./api-output";

/* Operations whose body is a file: an export to standard output, an import with its progress. */

/**
 * A file the API answers with (an export), streamed as it arrives so that a million rows never sit
 * in memory: to standard output (`svc datasets export --dataset-slug golden --format csv >
 * golden.csv`), or with --output to a file, written whole or not at all. Its format is --format's
 * (csv, jsonl or parquet), else the output file's name's, else csv.
 */
export async function download(
  ctx: Context,
  command: ApiCommand,
  values: Map<Input, string | true>,
  request: PreparedRequest,
  transport: Transport,
): Promise<void> {
  const named = fileFlag(command, values, "output");
  // `--output -` is standard output, as for other tools, and so is /dev/stdout, which a process whose
  // standard output is a socket cannot open.
  const path = named !== "-" && named !== "/dev/stdout" ? named : undefined;
  const format = exportFormat(ctx, command, path);
  if (format === "parquet" && path === undefined && ctx.io.stdout.isTTY) {
    throw usageError(
      "a Parquet file is binary and standard output is a terminal",
      `send it to a file: svc ${command.resource} ${command.name} … --output ${command.resource}.parquet`,
      "usage_error",
    );
  }
  const url = new URL(request.url);
  url.searchParams.set("format", format);
  request.url = url.toString();
  request.headers.accept = "*/*";
  if (path !== undefined) {
    await downloadToFile(ctx, command, request, transport, path, format);
    return;
  }
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      if (ctx.globals.quiet || ctx.io.stdout.write(chunk) !== false) done();
      else process.stdout.once("drain", () => done());
    },
  });
  await exchange(ctx, command, request, transport, sink);
}

/** The value given to one of the command line's own file flags (`location: "file"`), if any. */
function fileFlag(command: ApiCommand, values: Map<Input, string | true>, name: string): string | undefined {
  const input = command.inputs.find((candidate) => candidate.name === name && candidate.location === "file");
  const value = input ? values.get(input) : undefined;
  return typeof value === "string" ? value : undefined;
}

type ExportFormat = "csv" | "jsonl" | "parquet";
const EXPORT_FORMAT_OF_EXTENSION: Record<string, ExportFormat> = {
  csv: "csv",
  jsonl: "jsonl",
  ndjson: "jsonl",
  parquet: "parquet",
};

/** --format when it names a file format, else the output file's extension, else csv. */
function exportFormat(ctx: Context, command: ApiCommand, path: string | undefined): ExportFormat {
  const { format } = ctx.globals;
  const fromName =
    path === undefined ? undefined : EXPORT_FORMAT_OF_EXTENSION[extname(path).slice(1).toLowerCase()];
  if (format === "csv" || format === "jsonl" || format === "parquet") {
    if (fromName !== undefined && fromName !== format) {
      throw usageError(
        `--format ${format}, but --output ${path} is named as a ${fromName} file`,
        "drop --format, or name the file for the format",
        "usage_error",
      );
    }
    return format;
  }
  // table and json are what a terminal and a pipe get by default: no file format was asked for.
  if (format === "table" || format === "json") return fromName ?? "csv";
  throw usageError(
    `svc ${command.resource} ${command.name} writes csv, jsonl or parquet, not ${format}`,
    "use --format csv, --format jsonl or --format parquet",
    "usage_error",
  );
}

/**
 * The export into `path`, by way of a hidden file beside it that replaces it only once the whole
 * export has arrived: a failure (a refusal, a dropped connection, a full disk) leaves no file, and
 * an earlier file of that name as it was. Progress on standard error when that is a terminal.
 */
async function downloadToFile(
  ctx: Context,
  command: ApiCommand,
  request: PreparedRequest,
  transport: Transport,
  path: string,
  format: ExportFormat,
): Promise<void> {
  if (statSync(path, { throwIfNoEntry: false })?.isDirectory()) {
    throw usageError(`--output ${path}: a folder; name the file to write in it`);
  }
  // A device, a pipe or a symbolic link (/dev/stdout, a FIFO, latest.csv → v3.csv) is written
  // through, as it is: replacing it with a file would change what it is.
  const existing = lstatSync(path, { throwIfNoEntry: false });
  const direct = existing !== undefined && !existing.isFile();
  const partial = direct ? path : join(dirname(path), `.${basename(path)}.${process.pid}.partial`);
  /** A failure of this machine's file system, said of the file the person named. */
  const fileError = (error: unknown) => {
    const errno = error as NodeJS.ErrnoException;
    if (error instanceof CliError || typeof errno.code !== "string" || errno.syscall === undefined)
      return error;
    return usageError(`--output ${path}: ${errno.message.replace(/, \w+ '[^']*'$/, "")}`);
  };
  const file = createWriteStream(partial, { flags: direct ? "w" : "wx" });
  try {
    await once(file, "open");
  } catch (error) {
    throw fileError(error);
  }
  const bar = ctx.io.stderr.isTTY && !ctx.globals.quiet ? progressBar(ctx, path, undefined) : undefined;
  let bytes = 0;
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      bytes += chunk.length;
      bar?.show("exporting", bytes, undefined);
      if (file.write(chunk)) done();
      else file.once("drain", () => done());
    },
  });
  file.on("error", (error) => sink.destroy(error));
  let response: HttpResponse;
  try {
    response = await exchange(ctx, command, request, transport, sink);
    await new Promise<void>((resolve, reject) => {
      file.once("error", reject);
      file.end(resolve);
    });
    if (!direct) renameSync(partial, path);
  } catch (error) {
    file.destroy();
    if (!direct) rmSync(partial, { force: true });
    bar?.done("failed; no file written");
    throw fileError(error);
  }
  const version = header(response, "x-svc-version");
  const outcome = `${version ? `version ${version}, ` : ""}${formatBytes(bytes)} of ${format}`;
  if (bar) bar.done(outcome);
  else note(ctx, `${path}: ${outcome}`);
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
  mode?: string;
  bytesRead: number;
  rowsRead: number;
  versionId?: string | null;
  version?: number;
  rowsInserted?: number;
  rowsUpdated?: number;
  error?: { code: string; error: string; details?: unknown };
}

/** What an import that ended did, in the words the progress bar ends on. */
function importOutcome(end: ImportState): string {
  if (end.state !== "succeeded") return "failed; nothing was written";
  const read = `${end.rowsRead.toLocaleString("en-US")} ${end.rowsRead === 1 ? "row" : "rows"}`;
  if (end.versionId === null)
    return `${read} read, nothing changed: the dataset stays at version ${end.version}`;
  const changed =
    end.mode === "update"
      ? `updated ${(end.rowsUpdated ?? 0).toLocaleString("en-US")} of ${read}`
      : `imported ${read}`;
  return `${changed} as version ${end.version}`;
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
  const path = fileFlag(command, values, "file");
  const named = fileFlag(command, values, "fileFormat");
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
  bar?.done(importOutcome(current));
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

/**
 * A progress bar on standard error, one line redrawn in place: what is happening, a bar, bytes and
 * rows; of unknown size (standard input), it counts bytes instead.
 */
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
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(0)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
