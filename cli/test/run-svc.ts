import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { expect, inject } from "vitest";

export const SVC = fileURLToPath(new URL("../dist/svc.cjs", import.meta.url));

/**
 * The single executable every test of this run starts instead of the built script: the one named by
 * SVC_TEST_BINARY, or in the `cli-executable` project (SVC_TEST_EXECUTABLE=1) the one its global
 * setup built. The executable runs on Bun and the script on Node: the whole suite runs on both.
 */
export const suiteExecutable: string | undefined =
  process.env.SVC_TEST_BINARY ??
  (process.env.SVC_TEST_EXECUTABLE === "1" ? inject("svcBinary") || undefined : undefined);

/** How to start svc: the built script with Node, or a single executable (`binary`, else as above). */
export function svcCommand(args: string[], binary = suiteExecutable): [string, string[]] {
  return binary ? [binary, args] : [process.execPath, [SVC, ...args]];
}

export interface SvcResult {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
  /** Standard output as the bytes written. */
  stdoutBytes?: Buffer;
}

export interface SvcOptions {
  env?: Record<string, string | undefined>;
  input?: string;
  cwd?: string;
  timeoutMs?: number;
  /** A single executable to run instead of `node dist/svc.cjs`. */
  binary?: string;
}

/**
 * Runs the built `svc` in a clean environment: nothing from the caller's SVC_* variables, proxies or
 * session bus leaks in, so each test states what it depends on.
 */
export function runSvc(args: string[], options: SvcOptions = {}): Promise<SvcResult> {
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: process.env.HOME ?? "/tmp",
  };
  for (const [key, value] of Object.entries(options.env ?? {})) if (value !== undefined) env[key] = value;
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const [command, argv] = svcCommand(args, options.binary);
    const child = spawn(command, argv, { env, cwd: options.cwd, stdio: "pipe" });
    const stdout: Buffer[] = [];
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout.push(chunk);
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 20_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      const bytes = Buffer.concat(stdout);
      resolve({ code, stdout: bytes.toString("utf8"), stderr, ms: Date.now() - started, stdoutBytes: bytes });
    });
    child.stdin.end(options.input ?? "");
  });
}

export interface ErrorObject {
  error: string;
  code: string;
  status: number | null;
  requestId: string | null;
  hint: string | null;
  details?: unknown;
}

/** The one JSON object that svc writes on standard error when it fails outside a terminal. */
export function errorOf(result: SvcResult): ErrorObject {
  const lines = result.stderr.trim().split("\n");
  return JSON.parse(lines[lines.length - 1] ?? "{}");
}

/** What a stack trace or an uncaught error of Node looks like in the output of a process. */
const STACK_TRACE = [
  /^\s+at .+(:\d+:\d+\)?|\(native\)|\(<anonymous>\))$/m,
  /node:internal\//,
  /^\s*\^+\s*$/m,
  /^(Uncaught )?(Type|Reference|Syntax|Range)?Error: /m,
  /\[ERR_[A-Z_]+\]/,
];

/** Fails when any part of `text` looks like a stack trace. */
export function expectNoStackTrace(text: string): void {
  for (const pattern of STACK_TRACE) expect(text, `a stack trace in:\n${text}`).not.toMatch(pattern);
}

/**
 * A failure as CLI.md describes it: the exit code, nothing on standard output, no stack trace anywhere
 * on standard error, and standard error ending with the one JSON error object (after any warning
 * lines, such as SVC_INSECURE's). Returns that object.
 */
export function expectFailure(result: SvcResult, exit: number): ErrorObject {
  expect(result.code, result.stderr).toBe(exit);
  expect(result.stdout).toBe("");
  expectNoStackTrace(result.stderr);
  const lines = result.stderr.trimEnd().split("\n");
  for (const line of lines.slice(0, -1)) expect(line).toMatch(/^svc: warning: /);
  const error = errorOf(result);
  expect(Object.keys(error).slice(0, 5)).toEqual(["error", "code", "status", "requestId", "hint"]);
  return error;
}
