import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "vitest";
import { entryOf } from "./platform";

/** A process under test whose stdout and stderr are kept apart and whole. */
export interface Watched {
  child: ChildProcess;
  stdout: string[];
  stderr: string[];
  /** Resolves with the exit code, or the signal's name when a signal ended it. */
  exited: Promise<number | string>;
  output(): string;
}

function watch(child: ChildProcess): Watched {
  const stdout: string[] = [];
  const stderr: string[] = [];
  child.stdout?.on("data", (chunk: Buffer) => stdout.push(chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => stderr.push(chunk.toString()));
  const exited = new Promise<number | string>((resolve) =>
    child.once("exit", (code, signal) => resolve(code ?? signal ?? "unknown")),
  );
  return { child, stdout, stderr, exited, output: () => `${stdout.join("")}${stderr.join("")}` };
}

export const scratchDir = (label: string): string => mkdtempSync(join(tmpdir(), `svc-${label}-`));

/**
 * `scratchDir` for a suite (or, called outside any suite, for the whole file): every folder it makes is
 * removed after the suite's tests, whatever happened in them.
 */
export function scratchDirsForSuite(): (label: string) => string {
  const made: string[] = [];
  afterAll(() => {
    for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  return (label) => {
    const dir = scratchDir(label);
    made.push(dir);
    return dir;
  };
}

/** The environment a person would have: no DATABASE_URL or NATS_URL of the test run leaks in. */
const baseEnv = (): Record<string, string> => ({
  PATH: process.env.PATH ?? "",
  HOME: process.env.HOME ?? tmpdir(),
  LOG_LEVEL: "warn",
});

interface SpawnOptions {
  /** The folder it runs in; the test's own when not given. */
  cwd?: string;
  /** Added to a person's environment. */
  env?: Record<string, string>;
  /**
   * In a process group of its own, as a terminal runs a command in the foreground: a signal sent to
   * the group (a Ctrl-C, a supervisor's SIGTERM) reaches everything the command starts.
   */
  ownGroup?: boolean;
}

/** `command args` as a person runs it, with a person's environment, its output watched. */
export function spawnWatched(
  command: string,
  args: string[],
  { cwd, env = {}, ownGroup = false }: SpawnOptions = {},
): Watched {
  return watch(
    spawn(command, args, {
      ...(cwd === undefined ? {} : { cwd }),
      env: { ...baseEnv(), ...env },
      detached: ownGroup,
      stdio: ["ignore", "pipe", "pipe"],
    }),
  );
}

/** `node services/embedded/dist/main.js` as a person starts it, in `cwd`. */
export function spawnEmbedded(env: Record<string, string>, cwd: string = tmpdir()): Watched {
  return spawnWatched(process.execPath, [entryOf("embedded")], { cwd, env });
}

/** Waits for the line that says the server is up, and returns its address; fails at once if it exits. */
export async function waitRunning(proc: Watched, timeoutMs = 90_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const address = /svc is running on (http:\/\/\S+)/.exec(proc.stdout.join(""))?.[1];
    if (address) return address;
    if (proc.child.exitCode !== null || proc.child.signalCode !== null) {
      throw new Error(
        `svc exited (${proc.child.exitCode ?? proc.child.signalCode}) before running:\n${proc.output()}`,
      );
    }
    if (Date.now() > deadline) throw new Error(`svc did not start in ${timeoutMs} ms:\n${proc.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Sends `signal` and resolves with how the process ended and how long it took. */
export async function interrupt(
  proc: Watched,
  signal: NodeJS.Signals = "SIGINT",
): Promise<{ exit: number | string; ms: number }> {
  const started = Date.now();
  proc.child.kill(signal);
  const exit = await proc.exited;
  return { exit, ms: Date.now() - started };
}

/** Ends a process a failed test left running. */
export async function kill(proc: Watched | undefined): Promise<void> {
  if (!proc || proc.child.exitCode !== null || proc.child.signalCode !== null) return;
  proc.child.kill("SIGKILL");
  await proc.exited;
}

/** Ends a process group (see `ownGroup`) that a failed test left running: the command and all it started. */
export function killGroup(proc: Watched | undefined): void {
  const pid = proc?.child.pid;
  if (pid && proc.child.exitCode === null && proc.child.signalCode === null) process.kill(-pid, "SIGKILL");
}
