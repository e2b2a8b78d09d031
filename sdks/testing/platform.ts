import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { realInfra } from "@svc/testing";
import { startPlatform as startServices } from "../../e2e/src/platform.js";

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const EMBEDDED = join(repoRoot, "services/embedded/dist/main.js");
/** What the distributed platform runs: every service's bundle, built by the same step. */
const SERVICES = ["auth", "dataset-writer", "reader", "trace-ingest", "gateway"].map((name) =>
  join(repoRoot, "services", name, "dist/main.js"),
);

export type PlatformName = "embedded" | "distributed";

/** A running platform, reached like any client reaches it: over HTTP. */
export interface Platform {
  name: PlatformName;
  baseUrl: string;
  /** The owner key of the platform's first organisation. */
  apiKey: string;
  /** The operator token, for `POST /v1/organizations`. */
  adminToken: string;
  stop(): Promise<void>;
}

/** Both ways the platform runs, where this machine can run both (CI requires both). */
export function platforms(): [PlatformName, () => Promise<Platform>][] {
  const list: [PlatformName, () => Promise<Platform>][] = [["embedded", startPlatform]];
  if (realInfra()) list.push(["distributed", startDistributedPlatform]);
  return list;
}

/**
 * The distributed platform: each service a process of its own, on PostgreSQL and NATS (a scratch
 * database and subject prefix of its own), as the e2e suites start it.
 */
export async function startDistributedPlatform(): Promise<Platform> {
  ensureBuilt();
  const platform = await startServices();
  return {
    name: "distributed",
    baseUrl: platform.baseUrl,
    apiKey: platform.ownerKey,
    adminToken: platform.adminToken,
    stop: platform.stop,
  };
}

/** The embedded platform: every service in one process, on PGlite. */
export async function startPlatform(): Promise<Platform> {
  ensureBuilt();
  const dataDir = mkdtempSync(join(tmpdir(), "svc-sdk-"));
  const port = await freePort();
  const apiKey = `svc_${randomBytes(24).toString("base64url")}`;
  const adminToken = randomBytes(24).toString("hex");
  const output: string[] = [];
  const child = spawn(process.execPath, [EMBEDDED], {
    env: {
      PATH: process.env.PATH ?? "",
      PORT: String(port),
      HOST: "127.0.0.1",
      SVC_DATA_DIR: dataDir,
      SVC_BOOTSTRAP_KEY: apiKey,
      SVC_ADMIN_TOKEN: adminToken,
      LOG_LEVEL: "warn",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const keep = (chunk: Buffer) => {
    output.push(chunk.toString());
    if (output.length > 200) output.shift();
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  const exited = new Promise<void>((done) => child.once("exit", () => done()));
  const baseUrl = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    await exited;
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await waitReady(baseUrl, child);
  } catch (error) {
    await stop();
    throw new Error(`the embedded platform did not start: ${String(error)}\n${output.join("")}`);
  }
  return { name: "embedded", baseUrl, apiKey, adminToken, stop };
}

/** `npm test` builds the services first; a run of this project alone builds them when they are missing. */
function ensureBuilt(): void {
  if ([EMBEDDED, ...SERVICES].every((file) => existsSync(file))) return;
  const build = spawnSync(process.execPath, ["scripts/build.mjs", "--quiet"], {
    cwd: repoRoot,
    stdio: "inherit",
  });
  if (build.status !== 0) throw new Error("`npm run build` failed");
}

async function waitReady(baseUrl: string, child: ChildProcess, timeoutMs = 150_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`it exited with code ${child.exitCode}`);
    try {
      const response = await fetch(`${baseUrl}/readyz`, { signal: AbortSignal.timeout(2_000) });
      if (response.status === 200) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${baseUrl}/readyz did not answer 200 within ${timeoutMs} ms`);
    await new Promise((done) => setTimeout(done, 200));
  }
}

export function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once("error", fail);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => done(typeof address === "object" && address ? address.port : 0));
    });
  });
}
