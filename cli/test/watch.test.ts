import { type ChildProcess, spawn } from "node:child_process";
import { startEmbedded, type Target } from "@svc/testing/platform";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { svcCommand } from "./run-svc";

/* `svc datasets watch PROJECT DATASET`: a dataset's live changes, printed as they come, until Ctrl-C. */

let platform: Target;
let project = "";

async function api(method: string, path: string, body?: unknown): Promise<void> {
  const response = await fetch(`${platform.baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${platform.ownerKey}`, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  expect(response.status, await response.text()).toBeLessThan(300);
}

beforeAll(async () => {
  platform = await startEmbedded();
  await api("POST", "/v1/projects", { name: "Watched" });
  project = "watched";
  await api("POST", `/v1/projects/${project}/datasets`, { name: "QA" });
  await api("POST", `/v1/projects/${project}/datasets/qa/rows`, { rows: [{ id: "q0", input: "1+1" }] });
});
afterAll(() => platform?.stop());

/** `svc datasets watch` running, its standard output read line by line as it comes. */
function watch(...args: string[]) {
  const [command, argv] = svcCommand(["datasets", "watch", project, "qa", ...args]);
  const child: ChildProcess = spawn(command, argv, {
    env: { PATH: process.env.PATH, SVC_BASE_URL: platform.baseUrl, SVC_API_KEY: platform.ownerKey },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const lines = async (count: number, timeoutMs = 15_000) => {
    const started = Date.now();
    while (stdout.split("\n").filter(Boolean).length < count) {
      if (Date.now() - started > timeoutMs) throw new Error(`no ${count} lines: ${stdout}\n${stderr}`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    return stdout.split("\n").filter(Boolean);
  };
  return { child, exited, lines, stderr: () => stderr };
}

/** Until the stream is open: the gateway holds it once a watch shows up among its connections. */
const opened = () => new Promise((resolve) => setTimeout(resolve, 1_500));

describe("svc datasets watch", () => {
  it("prints a line of JSON per new version as it is made, and exits 0 on Ctrl-C", async () => {
    const watching = watch("--format", "jsonl");
    await opened();
    await api("PATCH", `/v1/projects/${project}/datasets/qa/rows/q0`, { output: "2" });
    const [line] = await watching.lines(1);
    expect(JSON.parse(line ?? "")).toMatchObject({
      version: 2,
      operation: "update",
      rowIds: ["q0"],
      rowIdsTruncated: false,
      rowsUpdated: 1,
    });
    watching.child.kill("SIGINT");
    expect(await watching.exited).toBe(0);
  });

  it("replays from --since, then prints live versions as table rows under one header", async () => {
    const watching = watch("--since", "1", "--format", "table");
    const [header, replayed] = await watching.lines(2);
    expect(header).toMatch(/^VERSION\s+OPERATION\s+ACTOR\s+INSERTED\s+UPDATED\s+DELETED\s+ROWS$/);
    expect(replayed).toMatch(/^2\s+update\s+apiKey:\S+\s+0\s+1\s+0\s+q0$/);
    await api("POST", `/v1/projects/${project}/datasets/qa/rows`, { rows: [{ id: "q1", input: "2+2" }] });
    const lines = await watching.lines(3);
    expect(lines[2]).toMatch(/^3\s+insert\s+\S+\s+1\s+0\s+0\s+q1$/);
    watching.child.kill("SIGINT");
    expect(await watching.exited).toBe(0);
  });

  it("ends with the API's error when the dataset does not exist", async () => {
    const [command, argv] = svcCommand(["datasets", "watch", project, "missing", "--format", "json"]);
    const child = spawn(command, argv, {
      env: { PATH: process.env.PATH, SVC_BASE_URL: platform.baseUrl, SVC_API_KEY: platform.ownerKey },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const code = await new Promise((resolve) => child.once("exit", resolve));
    expect(code).toBe(1);
    expect(JSON.parse(stderr)).toMatchObject({ code: "not_found", status: 404 });
  });
});
