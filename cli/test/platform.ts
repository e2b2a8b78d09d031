import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../..", import.meta.url));
export const EMBEDDED = join(root, "services/embedded/dist/main.js");

/** The real platform, embedded mode, on a free port with its own data and a key of our choosing. */
export interface Platform {
  baseUrl: string;
  apiKey: string;
  adminToken: string;
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

export async function startPlatform(): Promise<Platform> {
  if (!existsSync(EMBEDDED)) throw new Error(`${EMBEDDED} is missing: run \`npm run build\` first`);
  const dataDir = mkdtempSync(join(tmpdir(), "svc-cli-test-"));
  const port = await freePort();
  const apiKey = `svc_${randomBytes(24).toString("base64url")}`;
  const adminToken = randomBytes(24).toString("hex");
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
  const output: string[] = [];
  child.stdout?.on("data", (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => output.push(chunk.toString()));
  const baseUrl = `http://127.0.0.1:${port}`;
  try {
    await waitHealthy(baseUrl, child);
  } catch (error) {
    child.kill("SIGKILL");
    throw new Error(`the embedded platform did not start: ${String(error)}\n${output.join("")}`);
  }
  return {
    baseUrl,
    apiKey,
    adminToken,
    stop: async () => {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
      await exited;
      clearTimeout(timer);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function waitHealthy(baseUrl: string, child: ChildProcess): Promise<void> {
  // A loaded CI machine can take well over a minute to start the platform.
  const deadline = Date.now() + 150_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`exited with ${child.exitCode}`);
    try {
      const response = await fetch(`${baseUrl}/healthz`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error("no answer on /healthz within 150 s");
}
