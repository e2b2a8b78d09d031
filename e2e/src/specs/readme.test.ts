import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { realInfra } from "@svc/testing";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import {
  interrupt,
  kill,
  scratchDirsForSuite,
  spawnEmbedded,
  spawnWatched,
  type Watched,
  waitRunning,
} from "../embedded";
import { client } from "../http";
import { freePort, root } from "../platform";

const readme = readFileSync(join(root, "README.md"), "utf8");

/** The first ```sh block after the line that starts with `marker`, exactly as the README prints it. */
function shellBlockAfter(marker: string): string {
  const start = readme.split("\n").findIndex((line) => line.startsWith(marker));
  if (start < 0) throw new Error(`README.md has no line starting with ${JSON.stringify(marker)}`);
  const rest = readme.split("\n").slice(start);
  const open = rest.indexOf("```sh");
  const close = rest.findIndex((line, i) => i > open && line === "```");
  if (open < 0 || close < 0) throw new Error(`no \`\`\`sh block after ${JSON.stringify(marker)}`);
  return `${rest.slice(open + 1, close).join("\n")}\n`;
}

/** The JSON documents that commands printed one after the other, with or without newlines between. */
function jsonDocuments(text: string): unknown[] {
  const documents: unknown[] = [];
  let i = 0;
  while (i < text.length) {
    if (/\s/.test(text[i] as string)) {
      i++;
      continue;
    }
    let depth = 0;
    let inString = false;
    let end = i;
    for (; end < text.length; end++) {
      const c = text[end];
      if (inString) {
        if (c === "\\") end++;
        else if (c === '"') inString = false;
      } else if (c === '"') inString = true;
      else if (c === "{" || c === "[") depth++;
      else if (c === "}" || c === "]") {
        depth--;
        if (depth === 0) break;
      }
    }
    documents.push(JSON.parse(text.slice(i, end + 1)));
    i = end + 1;
  }
  return documents;
}

/** Runs `script` with bash, as a person pastes it, in a process group of its own. */
function bash(script: string, cwd: string, env: Record<string, string>): Watched {
  return spawnWatched("bash", ["-e", "-o", "pipefail", "-c", script], { cwd, env, ownGroup: true });
}

const scratch = scratchDirsForSuite();

describe("README: A first session with curl", () => {
  let server: Watched | undefined;
  afterAll(async () => {
    await kill(server);
  });

  it("works as printed against a fresh embedded server, from the folder it runs in", async () => {
    const block = shellBlockAfter("## A first session with curl");
    const cwd = scratch("readme");
    // No SVC_DATA_DIR: the server keeps its data in ./.svc-data of its folder, where the README reads the key.
    server = spawnEmbedded({ PORT: String(await freePort()) }, cwd);
    const baseUrl = await waitRunning(server);

    const session = bash(block, cwd, { SVC_BASE_URL: baseUrl });
    const exit = await session.exited;
    expect({ exit, stderr: session.stderr.join("") }).toEqual({ exit: 0, stderr: "" });

    const [project, dataset, inserted, edited, list, asItWas, ...extra] = jsonDocuments(
      session.stdout.join(""),
    );
    expect(extra).toEqual([]);
    expect(project).toMatchObject({ slug: "my-project", name: "My project" });
    expect(dataset).toMatchObject({ slug: "qa-set", name: "QA set", version: 0 });
    expect(inserted).toMatchObject({ version: 1, rowIds: ["q1", "q2"] });
    expect(edited).toEqual({ versionId: expect.any(String), version: 2 });

    const token = readFileSync(join(cwd, ".svc-data", "bootstrap-key"), "utf8").trim();
    const columns = await client(baseUrl, token).get<{ columns: { identifier: string; name: string }[] }>(
      "/v1/projects/my-project/datasets/qa-set/columns",
    );
    const difficulty = columns.body.columns.find((column) => column.name === "difficulty")?.identifier;
    expect(difficulty).toMatch(/^[a-z0-9]+$/);

    const items = (list as { items: { rowId: string }[] }).items;
    expect(items.map((row) => row.rowId).sort()).toEqual(["q1", "q2"]);
    expect(items.find((row) => row.rowId === "q1")).toMatchObject({
      input: { question: "2+2?" },
      output: "5",
      expectedOutput: { answer: "4" },
      custom: { [difficulty as string]: "easy" },
      version: 2,
    });
    expect(asItWas).toMatchObject({
      rowId: "q1",
      input: { question: "2+2?" },
      output: "5",
      expectedOutput: null,
      custom: {},
      version: 1,
    });

    expect((await interrupt(server)).exit).toBe(0);
  });
});

const infra = realInfra();

describe.runIf(infra)("README: distributed mode", () => {
  let session: Watched | undefined;
  let database: string | undefined;
  afterAll(async () => {
    await endGroup(session);
    if (database && infra) {
      const admin = new pg.Client({ connectionString: infra.databaseUrl });
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`).finally(() => admin.end());
    }
  });

  it("the printed commands create the database, start every service and give an owner key that works", async () => {
    const printed = shellBlockAfter("**Distributed**");
    // Two things this machine shares with other test runs are renamed: the database and the port.
    // The bus gets a subject prefix of its own through the environment.
    database = `svc_readme_${randomBytes(4).toString("hex")}`;
    const port = String(await freePort());
    const replacements: [string, string][] = [
      ["createdb -h 127.0.0.1 -U postgres svc ", `createdb -h 127.0.0.1 -U postgres ${database} `],
      ["127.0.0.1:5432/svc ", `127.0.0.1:5432/${database} `],
      ["127.0.0.1:8080/", `127.0.0.1:${port}/`],
      ["PORT=8080 ", `PORT=${port} `],
    ];
    let script = printed;
    for (const [from, to] of replacements) {
      expect(script, `the README's block contains ${JSON.stringify(from)}`).toContain(from);
      script = script.replaceAll(from, to);
    }
    expect(script).not.toMatch(/8080|\/svc\b/);

    session = bash(script, root, {
      SVC_BUS_PREFIX: `readme${randomBytes(4).toString("hex")}`,
      LOG_LEVEL: "warn",
    });
    const exit = await session.exited;
    expect(exit, session.output()).toBe(0);

    const token = /"token":"(svc_[^"]+)"/.exec(session.stdout.join(""))?.[1];
    expect(token, session.output()).toBeDefined();
    const api = client(`http://127.0.0.1:${port}`, token as string);
    const account = await api.get<{ organization: { name: string }; role: string }>("/v1/account");
    expect(account.status).toBe(200);
    expect(account.body).toMatchObject({ organization: { name: "My organisation" }, role: "owner" });
    const project = await api.post<{ slug: string }>("/v1/projects", { name: "Distributed" });
    expect(project.status).toBe(201);
    expect(project.body.slug).toBe("distributed");
  });
});

/** Stops what a bash session left running in the background (its process group), and waits for it. */
async function endGroup(proc: Watched | undefined): Promise<void> {
  const pid = proc?.child.pid;
  if (!pid) return;
  const alive = () => {
    try {
      process.kill(-pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  if (alive()) process.kill(-pid, "SIGTERM");
  const deadline = Date.now() + 15_000;
  while (alive() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
  if (alive()) process.kill(-pid, "SIGKILL");
}
