import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { svcCommand } from "./run-svc";

export interface TerminalResult {
  code: number | null;
  /** What the terminal showed (the streams that were left on it), with CRLF as LF. */
  screen: string;
  /** Standard output when it was sent to a file instead. */
  stdout: string;
  /** Standard error when it was sent to a file instead. */
  stderr: string;
}

export interface TerminalOptions {
  env?: Record<string, string | undefined>;
  /** Which streams stay on the terminal; the others go to files. Both by default. */
  onTerminal?: { stdout: boolean; stderr: boolean };
  /** The terminal's width; 0 leaves it unset, as a pseudo-terminal made by a script has it. 200 by default. */
  columns?: number;
}

const quote = (word: string): string => `'${word.replace(/'/g, `'\\''`)}'`;

/**
 * Runs svc on a real pseudo-terminal (util-linux `script`), as a person at a terminal would, with
 * standard output and/or standard error redirected to files when a test needs them apart.
 */
export function runOnTerminal(args: string[], options: TerminalOptions = {}): TerminalResult {
  const dir = mkdtempSync(join(tmpdir(), "svc-tty-"));
  const onTerminal = options.onTerminal ?? { stdout: true, stderr: true };
  const outFile = join(dir, "stdout");
  const errFile = join(dir, "stderr");
  const [command, argv] = svcCommand(args);
  const line = [
    `stty cols ${options.columns ?? 200};`,
    "exec",
    ...[command, ...argv].map(quote),
    ...(onTerminal.stdout ? [] : [">", quote(outFile)]),
    ...(onTerminal.stderr ? [] : ["2>", quote(errFile)]),
  ].join(" ");
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: process.env.HOME ?? "/tmp",
    TERM: "xterm-256color",
  };
  for (const [key, value] of Object.entries(options.env ?? {})) if (value !== undefined) env[key] = value;
  try {
    const run = spawnSync("script", ["-qec", line, "/dev/null"], {
      env,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
      timeout: 30_000,
    });
    const read = (file: string) => {
      try {
        return readFileSync(file, "utf8");
      } catch {
        return "";
      }
    };
    return {
      code: run.status,
      screen: run.stdout.replace(/\r\n/g, "\n"),
      stdout: read(outFile),
      stderr: read(errFile),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
