import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { realInfra } from "@svc/testing";
import {
  freePort,
  GENEROUS_RATE_LIMITS,
  type PlatformOptions,
  type RunningProcess,
  root,
  spawnNode,
  startPlatform,
  waitReady,
} from "./platform";

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

/** The embedded server; `env` adds to or overrides its environment (LOG_LEVEL is warn by default). */
export async function startEmbedded(env: Record<string, string> = {}): Promise<Target> {
  const dataDir = mkdtempSync(join(tmpdir(), "svc-e2e-"));
  const port = await freePort();
  const ownerKey = `svc_${randomBytes(24).toString("base64url")}`;
  const adminToken = randomBytes(24).toString("hex");
  const proc = spawnNode("embedded", join(root, "services/embedded/dist/main.js"), {
    PORT: String(port),
    SVC_DATA_DIR: dataDir,
    SVC_BOOTSTRAP_KEY: ownerKey,
    SVC_ADMIN_TOKEN: adminToken,
    LOG_LEVEL: "warn",
    ...GENEROUS_RATE_LIMITS,
    ...env,
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitReady(baseUrl).catch((error: unknown) => {
    throw new Error(`embedded server did not start: ${String(error)}\n${proc.output.join("")}`);
  });
  return {
    name: "embedded",
    baseUrl,
    ownerKey,
    adminToken,
    processes: [proc],
    newOrganizationKey: () => createOrganization(baseUrl, adminToken),
    stop: async () => {
      proc.child.kill("SIGTERM");
      await proc.exited;
      rmSync(dataDir, { recursive: true, force: true });
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

export async function createOrganization(baseUrl: string, adminToken: string): Promise<string> {
  const response = await fetch(`${baseUrl}/v1/organizations`, {
    method: "POST",
    headers: { authorization: `Bearer ${adminToken}`, "content-type": "application/json" },
    body: JSON.stringify({ name: `org ${randomBytes(3).toString("hex")}` }),
  });
  if (response.status !== 201)
    throw new Error(`organisation not created: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { apiKey: { token: string } }).apiKey.token;
}

/** Both ways the platform runs, when this machine can run both. */
export function targets(): [string, () => Promise<Target>][] {
  const list: [string, () => Promise<Target>][] = [["embedded", () => startEmbedded()]];
  if (realInfra()) list.push(["distributed", () => startDistributed()]);
  return list;
}
