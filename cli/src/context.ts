import { readFileSync } from "node:fs";
import type { Settings } from "./env";
import { usageError } from "./errors";
import type { CommandTree } from "./spec/command-tree";
import { type Format, formats } from "./spec/local-commands";

/** Where the CLI reads and writes: the process, or a stand-in in tests. */
export interface Io {
  env: NodeJS.ProcessEnv;
  stdout: { write(chunk: string | Uint8Array): unknown; isTTY: boolean; columns: number };
  stderr: { write(chunk: string): unknown; isTTY: boolean };
  stdinIsTTY: boolean;
  readStdin(): string;
}

/**
 * The terminal's width: what it reports, else `COLUMNS`, else 100. A terminal that has no size set
 * (a serial console, a pseudo-terminal made by a script) reports 0, which is not a width to fit to.
 */
function terminalColumns(reported: number | undefined, variable: string | undefined): number {
  if (reported !== undefined && reported > 0) return reported;
  const named = Number(variable);
  return Number.isInteger(named) && named > 0 ? named : 100;
}

export function processIo(): Io {
  return {
    env: process.env,
    stdout: {
      write: (chunk) => process.stdout.write(chunk),
      isTTY: process.stdout.isTTY === true,
      columns: terminalColumns(process.stdout.columns, process.env.COLUMNS),
    },
    stderr: { write: (chunk) => process.stderr.write(chunk), isTTY: process.stderr.isTTY === true },
    // Not process.stdin, whose creation loads the streams of node:fs (7 ms) for a question of one call.
    stdinIsTTY: (require("node:tty") as typeof import("node:tty")).isatty(0),
    readStdin: () => readFileSync(0, "utf8"),
  };
}

export interface GlobalOptions {
  format: Format;
  query: string | undefined;
  dryRun: boolean;
  quiet: boolean;
  debug: boolean;
  pageAll: boolean;
  maxItems: number | undefined;
}

export interface Context {
  tree: CommandTree;
  io: Io;
  settings: Settings;
  globals: GlobalOptions;
}

export const isFormat = (value: string): value is Format => (formats as readonly string[]).includes(value);

/** Flag, then SVC_OUTPUT, then table on a terminal and json otherwise. */
export function resolveFormat(flag: string | undefined, settings: Settings, io: Io): Format {
  if (flag !== undefined) {
    if (!isFormat(flag)) throw badFormat(flag, "--format");
    return flag;
  }
  if (settings.output !== undefined) {
    if (!isFormat(settings.output)) throw badFormat(settings.output, "SVC_OUTPUT");
    return settings.output;
  }
  return io.stdout.isTTY ? "table" : "json";
}

const badFormat = (value: string, source: string) =>
  usageError(`${source} "${value}" is not a format`, `use one of ${formats.join(", ")}`, "invalid_format");

/** The format to report an error in, even when the arguments could not be parsed. */
export function errorFormat(flag: string | undefined, io: Io): Format | undefined {
  const candidate = flag ?? io.env.SVC_OUTPUT?.trim();
  return candidate !== undefined && isFormat(candidate) ? candidate : undefined;
}

export function write(ctx: Context, text: string | Uint8Array): void {
  if (!ctx.globals.quiet && text.length > 0) ctx.io.stdout.write(text);
}

export function note(ctx: Pick<Context, "io" | "globals">, text: string): void {
  if (!ctx.globals.quiet) ctx.io.stderr.write(`${text}\n`);
}
