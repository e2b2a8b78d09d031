import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { connect, createServer } from "node:net";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The repository's root: the nearest folder above this file whose package.json is the workspace's. Found
 * by looking rather than by counting folders, since the benchmarks run this code bundled into bench/dist.
 */
export const root = findRoot(dirname(fileURLToPath(import.meta.url)));

function findRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    const manifest = join(dir, "package.json");
    if (
      existsSync(manifest) &&
      (JSON.parse(readFileSync(manifest, "utf8")) as { name?: string }).name === "svc"
    )
      return dir;
    if (dirname(dir) === dir) throw new Error(`no svc workspace above ${from}`);
  }
}

/** The services the distributed platform runs, each a process of its own. */
export type ServiceName = "auth" | "dataset-writer" | "reader" | "trace-ingest" | "experiments" | "gateway";

export interface RunningProcess {
  name: string;
  child: ChildProcess;
  /** The last 200 chunks of stdout and stderr, for messages about a failure. */
  output: string[];
  /** Everything the process wrote to stdout and stderr, in order, for tests that must read all of it. */
  transcript: string[];
  exited: Promise<number | null>;
}

/** A built process's entry point: a service's, or the embedded one that runs them all. */
export function entryOf(name: ServiceName | "embedded"): string {
  const file = join(root, "services", name, "dist", "main.js");
  if (!existsSync(file)) throw new Error(`${file} is missing: run \`npm run build\` first`);
  return file;
}

/**
 * Builds every process's bundle when one is missing: `npm test` builds first, but a run of one
 * project's tests alone (the CLI's, the SDKs') may find none.
 */
export function ensureBuilt(): void {
  const names = ["auth", "dataset-writer", "reader", "trace-ingest", "experiments", "gateway", "embedded"];
  if (names.every((name) => existsSync(join(root, "services", name, "dist", "main.js")))) return;
  const build = spawnSync(process.execPath, ["scripts/build.mjs", "--quiet"], {
    cwd: root,
    stdio: "inherit",
  });
  if (build.status !== 0) throw new Error("`npm run build` failed");
}

export async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolvePort(typeof address === "object" && address ? address.port : 0));
    });
  });
}

/**
 * Node's flags for a service, read from its `npm start` (`node <flags> dist/main.js`), so that tests and
 * benchmarks start it as operators do (docs/decisions/0010-garbage-collector-settings.md).
 */
function nodeFlagsOf(service: string): string[] {
  const manifest = JSON.parse(readFileSync(join(root, "services", service, "package.json"), "utf8")) as {
    scripts: { start: string };
  };
  const words = manifest.scripts.start.split(" ");
  const entry = words.indexOf("dist/main.js");
  if (words[0] !== "node" || entry < 0) throw new Error(`services/${service}: unexpected start script`);
  return words.slice(1, entry);
}

export function spawnNode(name: string, file: string, env: Record<string, string>): RunningProcess {
  const child = spawn(process.execPath, [...nodeFlagsOf(name), file], {
    env: { PATH: process.env.PATH ?? "", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const output: string[] = [];
  const transcript: string[] = [];
  const keep = (chunk: Buffer) => {
    const text = chunk.toString();
    output.push(text);
    transcript.push(text);
    if (output.length > 200) output.shift();
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  const exited = new Promise<number | null>((resolveExit) => child.once("exit", (code) => resolveExit(code)));
  return { name, child, output, transcript, exited };
}

/**
 * Calls `attempt` every 100 ms until it returns a value. `failed` is asked before each attempt: the
 * reason it returns ends the wait at once (a process that exited will never answer).
 */
export async function waitFor<T>(
  what: string,
  attempt: () => Promise<T | undefined>,
  timeoutMs = 30_000,
  failed: () => string | undefined = () => undefined,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const reason = failed();
    if (reason) throw new Error(`${reason} while waiting for ${what}`);
    try {
      const value = await attempt();
      if (value !== undefined) return value;
    } catch {
      // not yet
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Waits for `/readyz` to answer 200; with `proc`, gives up as soon as that process ends. */
export async function waitReady(baseUrl: string, timeoutMs = 30_000, proc?: RunningProcess): Promise<void> {
  await waitFor(
    `${baseUrl}/readyz`,
    // Each probe bounded: whatever else holds the port may take the connection and never answer.
    async () =>
      (await fetch(`${baseUrl}/readyz`, { signal: AbortSignal.timeout(2_000) })).status === 200
        ? true
        : undefined,
    timeoutMs,
    () => {
      const end = proc?.child.exitCode ?? proc?.child.signalCode;
      return end === null || end === undefined ? undefined : `${proc?.name} exited (${end})`;
    },
  );
}

/** Whether something listens on the loopback `port`: true, or undefined (as `waitFor` waits on). */
export function acceptsConnections(port: number): Promise<true | undefined> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(undefined));
  });
}
