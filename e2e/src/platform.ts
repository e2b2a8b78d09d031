import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { createScratchDatabase } from "@svc/db/testing";
import { realInfra } from "@svc/testing";

export const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

export type ServiceName = "auth" | "dataset-writer" | "reader" | "trace-ingest" | "gateway";

export interface RunningProcess {
  name: string;
  child: ChildProcess;
  /** The last 200 chunks of stdout and stderr, for messages about a failure. */
  output: string[];
  /** Everything the process wrote to stdout and stderr, in order, for tests that must read all of it. */
  transcript: string[];
  exited: Promise<number | null>;
}

/** The distributed platform as separate processes on the local PostgreSQL and NATS. */
export interface Platform {
  baseUrl: string;
  gateways: string[];
  databaseUrl: string;
  natsUrl: string;
  busPrefix: string;
  adminToken: string;
  ownerKey: string;
  processes: RunningProcess[];
  start(name: ServiceName, extraEnv?: Record<string, string>): Promise<RunningProcess>;
  startGateway(): Promise<string>;
  stop(): Promise<void>;
}

export function entryOf(name: ServiceName): string {
  const file = join(root, "services", name, "dist", "main.js");
  if (!existsSync(file)) throw new Error(`${file} is missing: run \`npm run build\` first`);
  return file;
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

export async function waitFor<T>(
  what: string,
  attempt: () => Promise<T | undefined>,
  timeoutMs = 30_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
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

export async function waitReady(baseUrl: string, timeoutMs = 30_000): Promise<void> {
  await waitFor(
    `${baseUrl}/readyz`,
    async () => ((await fetch(`${baseUrl}/readyz`)).status === 200 ? true : undefined),
    timeoutMs,
  );
}

/**
 * Rate limits far above what any suite or benchmark sends, so that load and fault tests measure the
 * platform rather than the limiter; the limiter still runs on every request, so its cost is measured.
 * Suites about the limits pass their own.
 */
export const GENEROUS_RATE_LIMITS: Record<string, string> = {
  SVC_RATE_LIMIT_KEY_PER_SECOND: "1000000",
  SVC_RATE_LIMIT_KEY_BURST: "1000000",
  SVC_RATE_LIMIT_ORG_PER_SECOND: "1000000",
  SVC_RATE_LIMIT_ORG_BURST: "1000000",
  SVC_RATE_LIMIT_OAUTH_PER_SECOND: "1000",
  SVC_RATE_LIMIT_OAUTH_BURST: "1000",
};

export interface PlatformOptions {
  writers?: number;
  /** Environment of the i-th dataset-writer (from 0), to tell the replicas apart. */
  writerEnv?: (index: number) => Record<string, string>;
  /** Environment of the gateways, over GENEROUS_RATE_LIMITS. */
  gatewayEnv?: Record<string, string>;
  /** Environment of every process, gateways included. */
  env?: Record<string, string>;
  /** A NATS server of the test's own instead of NATS_URL's (which other tests share). */
  natsUrl?: string;
  /** The database URL the processes get, from the scratch database's: to put a proxy in between. */
  serviceDatabaseUrl?: (scratchUrl: string) => string;
}

export async function startPlatform({
  writers = 1,
  writerEnv = () => ({}),
  gatewayEnv = {},
  env = {},
  natsUrl,
  serviceDatabaseUrl = (url) => url,
}: PlatformOptions = {}): Promise<Platform> {
  const infra = realInfra();
  if (!infra) throw new Error("the e2e suite needs DATABASE_URL and NATS_URL");
  const scratch = await createScratchDatabase(infra.databaseUrl, "e2e");
  const busPrefix = `e2e${randomBytes(4).toString("hex")}`;
  const adminToken = randomBytes(24).toString("hex");
  const common = {
    DATABASE_URL: serviceDatabaseUrl(scratch.url),
    NATS_URL: natsUrl ?? infra.natsUrl,
    SVC_BUS_PREFIX: busPrefix,
    LOG_LEVEL: "warn",
    DB_POOL_SIZE: "8",
    ...env,
  };
  const processes: RunningProcess[] = [];
  const gateways: string[] = [];

  const start = async (name: ServiceName, extraEnv: Record<string, string> = {}) => {
    const proc = spawnNode(name, entryOf(name), { ...common, ...extraEnv });
    processes.push(proc);
    return proc;
  };
  const startGateway = async () => {
    const port = await freePort();
    await start("gateway", {
      PORT: String(port),
      HOST: "127.0.0.1",
      SVC_ADMIN_TOKEN: adminToken,
      ...GENEROUS_RATE_LIMITS,
      ...gatewayEnv,
    });
    const url = `http://127.0.0.1:${port}`;
    gateways.push(url);
    await waitReady(url).catch(async (error: Error) => {
      const readyz = await fetch(`${url}/readyz`).then((r) => r.text(), String);
      const logs = processes.map(
        (p) => `${p.name} (exit ${p.child.exitCode}): ${p.output.join("").slice(-800)}`,
      );
      throw new Error(`${error.message}; /readyz: ${readyz}\n${logs.join("\n")}`);
    });
    return url;
  };

  // Migrations run at every service's start-up; the first one to get Kysely's lock applies them.
  await start("auth");
  for (let i = 0; i < writers; i++) await start("dataset-writer", writerEnv(i));
  await start("reader");
  await start("trace-ingest");
  const baseUrl = await startGateway();

  const created = await fetch(`${baseUrl}/v1/organizations`, {
    method: "POST",
    headers: { authorization: `Bearer ${adminToken}`, "content-type": "application/json" },
    body: JSON.stringify({ name: `e2e ${busPrefix}` }),
  });
  if (created.status !== 201)
    throw new Error(`creating the organisation failed: ${created.status} ${await created.text()}`);
  const { apiKey } = (await created.json()) as { apiKey: { token: string } };

  return {
    baseUrl,
    gateways,
    databaseUrl: scratch.url,
    natsUrl: common.NATS_URL,
    busPrefix,
    adminToken,
    ownerKey: apiKey.token,
    processes,
    start,
    startGateway,
    stop: async () => {
      for (const proc of processes) if (proc.child.exitCode === null) proc.child.kill("SIGTERM");
      await Promise.race([
        Promise.all(processes.map((p) => p.exited)),
        new Promise((r) => setTimeout(r, 10_000)),
      ]);
      for (const proc of processes) if (proc.child.exitCode === null) proc.child.kill("SIGKILL");
      await scratch.drop();
    },
  };
}
