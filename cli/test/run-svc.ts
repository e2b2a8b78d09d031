import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

export const SVC = fileURLToPath(new URL("../dist/svc.cjs", import.meta.url));

/** How to start svc: the built script with Node, or a single executable (SVC_TEST_BINARY, or `binary`). */
export function svcCommand(args: string[], binary = process.env.SVC_TEST_BINARY): [string, string[]] {
  return binary ? [binary, args] : [process.execPath, [SVC, ...args]];
}

export interface SvcResult {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
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
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString("utf8");
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 20_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, ms: Date.now() - started });
    });
    child.stdin.end(options.input ?? "");
  });
}

/** The one JSON object that svc writes on standard error when it fails outside a terminal. */
export function errorOf(result: SvcResult): {
  error: string;
  code: string;
  status: number | null;
  requestId: string | null;
  hint: string | null;
} {
  const lines = result.stderr.trim().split("\n");
  return JSON.parse(lines[lines.length - 1] ?? "{}");
}
