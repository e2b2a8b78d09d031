import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, statSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  interrupt,
  kill,
  killGroup,
  scratchDirsForSuite,
  spawnEmbedded,
  spawnWatched,
  type Watched,
  waitRunning,
} from "../embedded";
import { client } from "../http";
import { freePort, root } from "../platform";

const modeOf = (file: string) => statSync(file).mode & 0o777;

interface Account {
  organization: { id: string; name: string; slug: string };
  role: string;
}
interface ApiKeys {
  apiKeys: { id: string; name: string; role: string }[];
}
interface Row {
  rowId: string;
  expectedOutput: unknown;
  version: number;
}

/** Every process and folder a test made, ended and removed whatever happened. */
const started: Watched[] = [];
const scratch = scratchDirsForSuite();
const dataFolder = (label: string) => join(scratch(label), "data");
async function start(env: Record<string, string>, cwd?: string) {
  const proc = spawnEmbedded(env, cwd);
  started.push(proc);
  return proc;
}
afterEach(async () => {
  for (const proc of started.splice(0)) await kill(proc);
});

describe("embedded mode, as a person runs it", () => {
  it("first start: a 'default' organisation and an owner key in a 0600 file it points to; Ctrl-C exits 0; a restart keeps everything", async () => {
    const dataDir = dataFolder("first");
    const keyFile = join(dataDir, "bootstrap-key");
    const env = { SVC_DATA_DIR: dataDir, PORT: String(await freePort()), HOST: "127.0.0.1" };

    const first = await start(env);
    const baseUrl = await waitRunning(first);

    expect(modeOf(keyFile)).toBe(0o600);
    const key = readFileSync(keyFile, "utf8");
    expect(key).toMatch(/^svc_[A-Za-z0-9_-]{16,}\n$/);
    const token = key.trim();
    expect(first.stdout.join("")).toContain(
      `created an owner API key in ${keyFile}; use it with: export SVC_API_KEY=$(cat ${keyFile})`,
    );
    expect(first.output()).not.toContain(token);

    const api = client(baseUrl, token);
    const account = await api.get<Account>("/v1/account");
    expect(account.status).toBe(200);
    expect(account.body).toMatchObject({ organization: { name: "default", slug: "default" }, role: "owner" });
    expect((await api.post("/v1/projects", { name: "Kept" })).status).toBe(201);
    const base = "/v1/projects/kept/datasets/golden";
    expect((await api.post("/v1/projects/kept/datasets", { name: "Golden" })).status).toBe(201);
    expect((await api.post(`${base}/rows`, { rows: [{ id: "r1", input: { q: "2+2?" } }] })).status).toBe(201);
    const edit = await api.patch<{ version: number }>(`${base}/rows/r1`, { expectedOutput: { answer: "4" } });
    expect(edit.status).toBe(200);
    expect(edit.body.version).toBe(2);

    const stopped = await interrupt(first, "SIGINT");
    expect(stopped.exit).toBe(0);
    expect(stopped.ms).toBeLessThan(5_000);
    expect(existsSync(join(dataDir, "lock"))).toBe(false);
    expect(first.stderr.join("")).toBe("");

    const second = await start(env);
    const againUrl = await waitRunning(second);
    expect(second.stdout.join("")).toContain(`owner API key: in ${keyFile}`);
    expect(second.stdout.join("")).not.toContain("created an owner API key");
    expect(readFileSync(keyFile, "utf8")).toBe(key);

    const again = client(againUrl, token);
    const keys = await again.get<ApiKeys>("/v1/api-keys");
    expect(keys.status).toBe(200);
    expect(keys.body.apiKeys).toHaveLength(1);
    expect((await again.get<Account>("/v1/account")).body.organization).toEqual(account.body.organization);
    const row = await again.get<Row>(`${base}/rows/r1`);
    expect(row.status).toBe(200);
    expect(row.body).toMatchObject({ rowId: "r1", expectedOutput: { answer: "4" }, version: 2 });
    const before = await again.get<Row>(`${base}/rows/r1?version=1`);
    expect(before.body).toMatchObject({ rowId: "r1", expectedOutput: null, version: 1 });

    expect((await interrupt(second, "SIGINT")).exit).toBe(0);
  });

  it("SVC_BOOTSTRAP_KEY=svc_… is the owner key, and is neither written nor printed", async () => {
    const dataDir = dataFolder("chosen");
    const chosen = `svc_${randomBytes(20).toString("hex")}`;
    const proc = await start({
      SVC_DATA_DIR: dataDir,
      PORT: String(await freePort()),
      SVC_BOOTSTRAP_KEY: chosen,
    });
    const api = client(await waitRunning(proc), chosen);

    const account = await api.get<Account>("/v1/account");
    expect(account.status).toBe(200);
    expect(account.body).toMatchObject({ organization: { name: "default" }, role: "owner" });
    expect((await api.get<ApiKeys>("/v1/api-keys")).body.apiKeys).toHaveLength(1);
    expect(existsSync(join(dataDir, "bootstrap-key"))).toBe(false);
    expect(proc.stdout.join("")).toContain("owner API key: the one in SVC_BOOTSTRAP_KEY");
    expect(proc.output()).not.toContain(chosen);
    expect((await interrupt(proc)).exit).toBe(0);
  });

  it("a malformed SVC_BOOTSTRAP_KEY is refused with a message naming the variable, before anything is created", async () => {
    const dataDir = dataFolder("malformed");
    const malformed = "my-secret-password";
    const proc = await start({
      SVC_DATA_DIR: dataDir,
      PORT: String(await freePort()),
      SVC_BOOTSTRAP_KEY: malformed,
    });

    expect(await proc.exited).toBe(1);
    expect(proc.stderr.join("")).toBe(
      "svc: Invalid configuration:\n  SVC_BOOTSTRAP_KEY: must look like svc_<at least 16 letters, digits, '_' or '-'>\n",
    );
    expect(proc.output()).not.toContain(malformed);
    expect(existsSync(dataDir)).toBe(false);
  });

  describe("a port already in use", () => {
    let holder: Server | undefined;
    afterEach(async () => {
      await new Promise((resolve) => (holder ? holder.close(resolve) : resolve(undefined)));
    });

    it("is one line naming PORT and HOST, exit 1, and the generated key is kept for the next start", async () => {
      const dataDir = dataFolder("busy");
      const keyFile = join(dataDir, "bootstrap-key");
      const port = await freePort();
      holder = createServer();
      await new Promise<void>((resolve) => holder?.listen(port, "127.0.0.1", resolve));

      const refused = await start({ SVC_DATA_DIR: dataDir, PORT: String(port), HOST: "127.0.0.1" });
      expect(await refused.exited).toBe(1);
      expect(refused.stderr.join("")).toBe(
        `svc: cannot listen on 127.0.0.1:${port}: something else is using it; stop it, or set PORT (or HOST) to another address\n`,
      );
      expect(refused.stdout.join("")).toContain(`created an owner API key in ${keyFile}`);
      expect(modeOf(keyFile)).toBe(0o600);
      expect(existsSync(join(dataDir, "lock"))).toBe(false);
      const token = readFileSync(keyFile, "utf8").trim();
      expect(refused.output()).not.toContain(token);

      const next = await start({ SVC_DATA_DIR: dataDir, PORT: String(await freePort()) });
      const api = client(await waitRunning(next), token);
      expect((await api.get<Account>("/v1/account")).body).toMatchObject({ role: "owner" });
      expect((await api.get<ApiKeys>("/v1/api-keys")).body.apiKeys).toHaveLength(1);
      expect(readFileSync(keyFile, "utf8").trim()).toBe(token);
      expect((await interrupt(next)).exit).toBe(0);
    });
  });
});

describe("`npm start` at the root", () => {
  let npm: Watched | undefined;
  // npm, its shell and svc share a process group of their own: end them all.
  afterEach(() => killGroup(npm));

  it("builds, runs the embedded platform with HOST, PORT and SVC_DATA_DIR, and stops on Ctrl-C", async () => {
    const dataDir = dataFolder("npm-start");
    const port = await freePort();
    npm = spawnWatched("npm", ["start"], {
      cwd: root,
      env: { LOG_LEVEL: "info", HOST: "127.0.0.1", PORT: String(port), SVC_DATA_DIR: dataDir },
      // A terminal's Ctrl-C goes to the whole foreground process group; this makes one to send it to.
      ownGroup: true,
    });
    const baseUrl = await waitRunning(npm, 110_000);
    expect(baseUrl).toBe(`http://127.0.0.1:${port}`);
    const token = readFileSync(join(dataDir, "bootstrap-key"), "utf8").trim();
    expect((await fetch(`${baseUrl}/readyz`)).status).toBe(200);
    expect((await client(baseUrl, token).get<Account>("/v1/account")).status).toBe(200);

    process.kill(-(npm.child.pid as number), "SIGINT");
    // npm reports the interruption as its own; what matters is that svc itself stopped cleanly.
    await npm.exited;
    await expect.poll(() => npm?.stdout.join("").includes('"msg":"stopped"'), { timeout: 5_000 }).toBe(true);
    await expect.poll(() => existsSync(join(dataDir, "lock")), { timeout: 5_000 }).toBe(false);
  });
});
