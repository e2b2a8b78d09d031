/**
 * The one harness that starts a platform for the end-to-end suites, the CLI's and SDKs' tests and the
 * benchmarks: embedded (every service in one process, on PGlite) or distributed (each service a process
 * of its own, on a scratch PostgreSQL database and a NATS subject prefix of its own), from the built
 * `dist` bundles, as operators start them.
 */
import { randomBytes } from "node:crypto";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createScratchDatabase } from "@svc/db/testing";
import { realInfra } from "./infra";
import { PgBouncer } from "./pgbouncer";
import { templateDataDir } from "./pglite-template";
import { entryOf, freePort, type RunningProcess, type ServiceName, spawnNode, waitReady } from "./processes";

export * from "./processes";

/** How long the embedded platform may take to be ready: a loaded CI machine can take over a minute. */
const EMBEDDED_START_MS = 150_000;

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

/**
 * Queue bounds far above the platform's defaults (500 ms). Suites run beside each other on a loaded
 * machine, where a whole process may be starved of the CPU for half a second; shedding then would turn
 * some test's request into a 503 that says nothing about what the test checks. The count bounds stay
 * as they are, and suites and benchmarks about shedding ask for the defaults (`queueBounds: "product"`).
 */
export const PATIENT_QUEUES: Record<string, string> = {
  SVC_GATEWAY_MAX_QUEUE_MS: "10000",
  SVC_WRITER_MAX_QUEUE_MS: "10000",
};

/** A running platform reached only over HTTP, whichever way it runs. */
export interface Target {
  name: "embedded" | "distributed";
  baseUrl: string;
  ownerKey: string;
  /** The operator token (`SVC_ADMIN_TOKEN`) of `POST /v1/organizations`. */
  adminToken: string;
  /** Its processes: one when embedded, one per service when distributed. */
  processes: RunningProcess[];
  /** Creates another organisation and returns its owner key (distributed only has the operator route). */
  newOrganizationKey(): Promise<string>;
  stop(): Promise<void>;
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
  /**
   * Put PgBouncer in transaction mode between the services and PostgreSQL (with
   * DB_PREPARED_STATEMENTS=off); by default when SVC_E2E_PGBOUNCER=1, to run a whole suite that way.
   */
  pgbouncer?: boolean;
  /** The PostgreSQL server the scratch database is made on, instead of DATABASE_URL's. */
  databaseServerUrl?: string;
  /** Environment of the reader, from the scratch database's URL (to give it a read standby of it). */
  readerEnv?: (scratchUrl: string) => Record<string, string>;
  /** PATIENT_QUEUES (the default), or the platform's own queue bounds. */
  queueBounds?: "patient" | "product";
  /**
   * How long the first gateway may take to be ready (default 30 s): more where the test's own
   * servers share the machine's cores with the platform's processes as they start.
   */
  readyTimeoutMs?: number;
}

/** SIGTERM, as an orchestrator stops a process; SIGKILL for any still running ten seconds later. */
async function stopAll(processes: RunningProcess[]): Promise<void> {
  for (const proc of processes) if (proc.child.exitCode === null) proc.child.kill("SIGTERM");
  await Promise.race([
    Promise.all(processes.map((p) => p.exited)),
    new Promise((r) => setTimeout(r, 10_000)),
  ]);
  for (const proc of processes) if (proc.child.exitCode === null) proc.child.kill("SIGKILL");
}

/**
 * Starts a server on a free port, and again on another, up to three times, when `start` throws
 * PortTaken: a free port can be taken before the server listens on it, by another test's server or
 * by the local end of any outgoing connection (the kernel picks those from the same range).
 */
async function onFreePort<T>(start: (port: number) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await start(await freePort());
    } catch (error) {
      if (attempt >= 3 || !(error instanceof PortTaken)) throw error;
    }
  }
}

/** The server exited because its port was taken, and may be started again on another. */
class PortTaken extends Error {}

/** The embedded server; `env` adds to or overrides its environment (LOG_LEVEL is warn by default). */
export async function startEmbedded(env: Record<string, string> = {}): Promise<Target> {
  return onFreePort((port) => startEmbeddedOn(port, env));
}

async function startEmbeddedOn(port: number, env: Record<string, string>): Promise<Target> {
  const dataDir = mkdtempSync(join(tmpdir(), "svc-platform-"));
  // The database from the run's migrated template, unless the test names a data directory of its own.
  const template = templateDataDir();
  if (template && env.SVC_DATA_DIR === undefined) cpSync(template, join(dataDir, "db"), { recursive: true });
  const ownerKey = `svc_${randomBytes(24).toString("base64url")}`;
  const adminToken = randomBytes(24).toString("hex");
  const proc = spawnNode("embedded", entryOf("embedded"), {
    PORT: String(port),
    SVC_DATA_DIR: dataDir,
    SVC_BOOTSTRAP_KEY: ownerKey,
    SVC_ADMIN_TOKEN: adminToken,
    LOG_LEVEL: "warn",
    ...GENEROUS_RATE_LIMITS,
    ...PATIENT_QUEUES,
    ...env,
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  const stop = async () => {
    await stopAll([proc]);
    rmSync(dataDir, { recursive: true, force: true });
  };
  await waitReady(baseUrl, EMBEDDED_START_MS, proc).catch(async (error: Error) => {
    await stop();
    const output = proc.output.join("");
    const taken =
      env.PORT === undefined &&
      output.includes(`cannot listen on 127.0.0.1:${port}: something else is using it`);
    throw new (taken ? PortTaken : Error)(`embedded server did not start: ${error.message}\n${output}`);
  });
  return {
    name: "embedded",
    baseUrl,
    ownerKey,
    adminToken,
    processes: [proc],
    newOrganizationKey: () => createOrganization(baseUrl, adminToken),
    stop,
  };
}

export async function startPlatform({
  writers = 1,
  writerEnv = () => ({}),
  gatewayEnv = {},
  env = {},
  natsUrl,
  serviceDatabaseUrl = (url) => url,
  pgbouncer = process.env.SVC_E2E_PGBOUNCER === "1",
  databaseServerUrl,
  readerEnv = () => ({}),
  queueBounds = "patient",
  readyTimeoutMs = 30_000,
}: PlatformOptions = {}): Promise<Platform> {
  const infra = realInfra();
  if (!infra) throw new Error("the distributed platform needs DATABASE_URL and NATS_URL");
  const scratch = await createScratchDatabase(databaseServerUrl ?? infra.databaseUrl, "e2e");
  const busPrefix = `e2e${randomBytes(4).toString("hex")}`;
  const adminToken = randomBytes(24).toString("hex");
  const bouncer = pgbouncer ? await PgBouncer.start(scratch.url) : undefined;
  const common = {
    DATABASE_URL: serviceDatabaseUrl(bouncer ? bouncer.urlOf(scratch.url) : scratch.url),
    ...(bouncer ? { DB_PREPARED_STATEMENTS: "off" } : {}),
    NATS_URL: natsUrl ?? infra.natsUrl,
    SVC_BUS_PREFIX: busPrefix,
    LOG_LEVEL: "warn",
    DB_POOL_SIZE: "8",
    ...(queueBounds === "patient" ? PATIENT_QUEUES : {}),
    ...env,
  };
  const processes: RunningProcess[] = [];
  const gateways: string[] = [];

  const start = async (name: ServiceName, extraEnv: Record<string, string> = {}) => {
    const proc = spawnNode(name, entryOf(name), { ...common, ...extraEnv });
    processes.push(proc);
    return proc;
  };
  const startGateway = (): Promise<string> =>
    onFreePort(async (port) => {
      const proc = await start("gateway", {
        PORT: String(port),
        HOST: "127.0.0.1",
        SVC_ADMIN_TOKEN: adminToken,
        ...GENEROUS_RATE_LIMITS,
        ...gatewayEnv,
      });
      const url = `http://127.0.0.1:${port}`;
      try {
        await waitReady(url, readyTimeoutMs, proc);
      } catch (error) {
        if (proc.child.exitCode !== null && proc.output.join("").includes("EADDRINUSE")) {
          processes.splice(processes.indexOf(proc), 1);
          throw new PortTaken(`${(error as Error).message}\n${proc.output.join("")}`);
        }
        const readyz = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(2_000) }).then(
          (r) => r.text(),
          String,
        );
        const logs = processes.map(
          (p) => `${p.name} (exit ${p.child.exitCode}): ${p.output.join("").slice(-800)}`,
        );
        throw new Error(`${(error as Error).message}; /readyz: ${readyz}\n${logs.join("\n")}`);
      }
      gateways.push(url);
      return url;
    });

  // Migrations run at every service's start-up; the first one to get Kysely's lock applies them.
  await start("auth");
  for (let i = 0; i < writers; i++) await start("dataset-writer", writerEnv(i));
  await start("reader", readerEnv(scratch.url));
  await start("trace-ingest");
  await start("experiments");
  let baseUrl: string;
  let ownerKey: string;
  try {
    baseUrl = await startGateway();
    ownerKey = await createOrganization(baseUrl, adminToken, `e2e ${busPrefix}`);
  } catch (error) {
    // A platform that did not start leaves no process running and no database behind.
    await stopAll(processes);
    await bouncer?.stop();
    await scratch.drop();
    throw error;
  }

  return {
    baseUrl,
    gateways,
    databaseUrl: scratch.url,
    natsUrl: common.NATS_URL,
    busPrefix,
    adminToken,
    ownerKey,
    processes,
    start,
    startGateway,
    stop: async () => {
      await stopAll(processes);
      await bouncer?.stop();
      await scratch.drop();
    },
  };
}

export async function startDistributed(options: PlatformOptions = {}): Promise<Target> {
  const platform = await startPlatform(options);
  return {
    name: "distributed",
    baseUrl: platform.baseUrl,
    ownerKey: platform.ownerKey,
    adminToken: platform.adminToken,
    processes: platform.processes,
    newOrganizationKey: () => createOrganization(platform.baseUrl, platform.adminToken),
    stop: () => platform.stop(),
  };
}

/** A new organisation through the operator route; returns its owner key. */
export async function createOrganization(
  baseUrl: string,
  adminToken: string,
  name = `org ${randomBytes(3).toString("hex")}`,
): Promise<string> {
  const response = await fetch(`${baseUrl}/v1/organizations`, {
    method: "POST",
    headers: { authorization: `Bearer ${adminToken}`, "content-type": "application/json" },
    body: JSON.stringify({ name }),
  });
  if (response.status !== 201)
    throw new Error(`organisation not created: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { apiKey: { token: string } }).apiKey.token;
}

/** Both ways the platform runs, when this machine can run both. */
export function targets(): [Target["name"], () => Promise<Target>][] {
  // Behind PgBouncer only the distributed platform changes: the embedded one would only run again.
  if (process.env.SVC_E2E_PGBOUNCER === "1" && realInfra())
    return [["distributed", () => startDistributed()]];
  const list: [Target["name"], () => Promise<Target>][] = [["embedded", () => startEmbedded()]];
  if (realInfra()) list.push(["distributed", () => startDistributed()]);
  return list;
}
