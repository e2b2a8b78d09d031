// Start-up and big-list costs of the single executable `svc` (linux-amd64; the release script builds
// all five targets when one is missing from cli/release/, or with --rebuild), side by side with
// `gh --version` (Debian's gh) and with curl sending the same request to a local platform (the
// embedded one, started by the shared harness). The 10,000-item list comes from a small local HTTP
// server serving one canned page, so that what is measured is svc, not the platform.
// Usage: `npm run bench -- cli [--runs=N] [--rebuild] [--write]`. Prints Markdown tables: medians with
// ratios to gh, and the start-up targets and the release matrix; --write records them in docs/performance.md.
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { root, startEmbedded } from "@svc/testing/platform";
import { archiveName, bunBinaryOf, bunVersion, targets } from "../../cli/scripts/targets.mjs";
import { writeSection } from "./report";

const cli = join(root, "cli");
const args = process.argv.slice(2);
// `--runs=N` passes through bench/run.mjs, which takes a bare word for a benchmark's name; `--runs N` too.
const runsAt = args.indexOf("--runs");
const runsArg = runsAt >= 0 ? args[runsAt + 1] : args.find((arg) => arg.startsWith("--runs="))?.slice(7);
const runs = runsArg === undefined ? 21 : Number(runsArg);
const ITEMS = 10_000;

/** A command to time: its label, its words, and what it adds to the shared environment. */
type Case = [label: string, command: string[], extraEnv?: Record<string, string>];
interface Timing {
  min: number;
  median: number;
}

if (process.platform !== "linux" || process.arch !== "x64") {
  console.error("bench: the single executable is built for linux-amd64 only on a linux-amd64 machine");
  process.exit(1);
}

const archive = join(cli, "release/svc-linux-amd64.tar.gz");
// Every target is built (the release matrix below), when one is missing or with --rebuild.
if (
  args.includes("--rebuild") ||
  !targets.every((target) => existsSync(join(cli, "release", archiveName(target))))
) {
  console.error("bench: building the single executables (npm run release -w cli)…");
  execFileSync(process.execPath, [join(cli, "scripts/release.mjs")], {
    stdio: ["ignore", "ignore", "inherit"],
  });
}
const unpacked = mkdtempSync(join(tmpdir(), "svc-bench-"));
execFileSync("tar", ["-xzf", archive, "-C", unpacked]);
const svc = join(unpacked, "svc");
// A program's floor: the runtime running a file that does nothing (`node -e 0` skips the module loader).
const empty = join(unpacked, "empty.js");
writeFileSync(empty, "");
// A request's floor in the executable's runtime: the GET that svc sends, with fetch and nothing else.
const bareRequest = join(unpacked, "request.js");
writeFileSync(
  bareRequest,
  "const { SVC_BASE_URL: base, SVC_API_KEY: key } = process.env;\n" +
    'fetch(base + "/v1/projects", { headers: { authorization: "Bearer " + key } }).then((answer) => answer.text()).then((text) => process.stdout.write(text));',
);

/** A server answering every GET with the same page of ITEMS rows, in a child process (spawnSync blocks us). */
async function startServer(): Promise<{ url: string; stop: () => void }> {
  const source = `
    const items = Array.from({ length: ${ITEMS} }, (_, i) => ({
      rowId: "r" + i, datasetId: "d1", input: { question: "question " + i },
      output: null, expectedOutput: i % 2 ? null : "answer " + i, metadata: {}, custom: { k1: i },
      createdAt: "2026-01-01T00:00:00.000Z", version: i,
    }));
    const body = JSON.stringify({ items, nextCursor: null, hasMore: false });
    const server = require("node:http").createServer((req, res) => {
      res.writeHead(200, { "content-type": "application/json", "x-request-id": "bench" });
      res.end(body);
    });
    server.listen(0, "127.0.0.1", () => console.log(server.address().port));`;
  const child = spawn(process.execPath, ["-e", source], { stdio: ["ignore", "pipe", "inherit"] });
  const port = await new Promise<number>((done) =>
    child.stdout.once("data", (chunk) => done(Number(String(chunk)))),
  );
  return { url: `http://127.0.0.1:${port}`, stop: () => child.kill() };
}

/**
 * Runs every case once per round, round after round, so that a machine whose load changes during the
 * bench slows every case alike; returns each case's median and minimum.
 */
function measureAll(cases: Case[], env: Record<string, string>): Timing[] {
  const times: number[][] = cases.map(() => []);
  for (let round = 0; round < runs; round++) {
    for (const [index, [, command, extraEnv]] of cases.entries()) {
      const [program = "", ...words] = command;
      const started = process.hrtime.bigint();
      const run = spawnSync(program, words, { stdio: "ignore", env: { ...env, ...extraEnv } });
      if (run.error || run.status !== 0) {
        throw new Error(`${command.join(" ")} failed: ${run.error?.message ?? `exit ${run.status}`}`);
      }
      times[index]?.push(Number(process.hrtime.bigint() - started) / 1e6);
    }
  }
  return times.map((list) => {
    list.sort((a, b) => a - b);
    return { min: list[0] ?? Number.NaN, median: list[Math.floor(list.length / 2)] ?? Number.NaN };
  });
}

/** The embedded platform with one project, for the request that curl and svc both send. */
async function startPlatform(): Promise<{ url: string; key: string; stop: () => Promise<void> }> {
  const platform = await startEmbedded();
  const created = await fetch(`${platform.baseUrl}/v1/projects`, {
    method: "POST",
    headers: { authorization: `Bearer ${platform.ownerKey}`, "content-type": "application/json" },
    body: '{"name":"Bench"}',
  });
  if (created.status !== 201) {
    await platform.stop();
    throw new Error(`bench: creating the project failed: ${created.status} ${await created.text()}`);
  }
  return { url: platform.baseUrl, key: platform.ownerKey, stop: platform.stop };
}

const server = await startServer();
const platform = await startPlatform();
// What a person's shell gives every command, NODE_EXTRA_CA_CERTS included where it is set (many
// corporate machines set it; Node 20 read it at every start).
const env: Record<string, string> = {
  PATH: process.env.PATH ?? "",
  HOME: process.env.HOME ?? "",
  SVC_BASE_URL: server.url,
  SVC_API_KEY: "svc_bench",
  ...(process.env.NODE_EXTRA_CA_CERTS ? { NODE_EXTRA_CA_CERTS: process.env.NODE_EXTRA_CA_CERTS } : {}),
};
// The Bun release the executable is compiled with, as the release script fetched it.
const linux = targets.find((target) => target.name === "linux-amd64");
if (!linux) throw new Error("bench: targets.mjs has no linux-amd64 target");
const pinnedBun = bunBinaryOf(linux);
const list = [svc, "datasets", "list-rows", "--project-slug", "p", "--dataset-slug", "d"];
const cases: Case[] = [
  ["`gh --version`", ["gh", "--version"]],
  [`an empty script, Node ${process.versions.node} (this machine's)`, [process.execPath, empty]],
  [`an empty script, Bun ${bunVersion} (the executable's floor)`, [pinnedBun, empty]],
  ["`svc --version`", [svc, "--version"]],
  ["`svc datasets --help`", [svc, "datasets", "--help"]],
  [`list of ${ITEMS.toLocaleString("en")} rows, \`--format raw\` (no parsing)`, [...list, "--format", "raw"]],
  [
    `same, \`--query 'items[?version > \\\`5000\\\`].rowId'\``,
    [...list, "--query", "items[?version > `5000`].rowId", "--format", "json"],
  ],
  ["same, `--format table`", [...list, "--format", "table"]],
  [
    "`curl` GET /v1/projects from the local platform",
    [
      "curl",
      "-sf",
      "-o",
      "/dev/null",
      "-H",
      `authorization: Bearer ${platform.key}`,
      `${platform.url}/v1/projects`,
    ],
  ],
  [
    `the same request with \`fetch\` alone, Bun ${bunVersion}`,
    [pinnedBun, bareRequest],
    { SVC_BASE_URL: platform.url, SVC_API_KEY: platform.key },
  ],
  [
    "`svc projects list`, the same request",
    [svc, "projects", "list"],
    { SVC_BASE_URL: platform.url, SVC_API_KEY: platform.key },
  ],
];

const load = loadavg()[0] ?? Number.NaN;
let results: [string, Timing][];
try {
  results = measureAll(cases, env).map((result, index) => [cases[index]?.[0] ?? "", result]);
} finally {
  server.stop();
  await platform.stop();
  rmSync(unpacked, { recursive: true, force: true });
}

const gh = results[0]?.[1].median ?? Number.NaN;
const rawAt = results.findIndex(([label]) => label.includes("`--format raw`"));
const raw = results[rawAt]?.[1].median ?? Number.NaN;
const ghVersion = spawnSync("gh", ["--version"], { encoding: "utf8" }).stdout.split("\n")[0];
const built = new Date(Number(execFileSync("stat", ["-c", "%Y", archive], { encoding: "utf8" })) * 1000);
const setting =
  `${cpus()[0]?.model ?? "unknown CPU"}, ${cpus().length} cores, Node ${process.versions.node}, ${ghVersion}; ` +
  `${runs} rounds, wall-clock ms; NODE_EXTRA_CA_CERTS ${env.NODE_EXTRA_CA_CERTS ? "set" : "not set"}; load average ${load.toFixed(1)} before, ${(loadavg()[0] ?? Number.NaN).toFixed(1)} after; binary built ${built.toISOString()}`;

const commands = ["| Command | median | min | median / gh |", "|---|---:|---:|---:|"];
for (const [index, [label, { min, median }]] of results.entries()) {
  const delta = median - raw;
  const extra =
    index === rawAt + 1 || index === rawAt + 2
      ? ` (${delta < 0 ? "−" : "+"}${Math.abs(delta).toFixed(0)} vs raw)`
      : "";
  commands.push(
    `| ${label} | ${median.toFixed(1)}${extra} | ${min.toFixed(1)} | ${(median / gh).toFixed(2)} |`,
  );
}

// The start-up targets: a command people type often starts at least as fast as gh, a resource's help
// within 1.5 times gh's start, and a request costs at most three times curl's for the same request.
const medianOf = (label: string) => results.find(([name]) => name === label)?.[1].median ?? Number.NaN;
const curl = medianOf("`curl` GET /v1/projects from the local platform");
const goals: [string, number, number][] = [
  ["`svc --version` ÷ `gh --version`", medianOf("`svc --version`") / gh, 1.0],
  ["`svc datasets --help` ÷ `gh --version`", medianOf("`svc datasets --help`") / gh, 1.5],
  ["`svc projects list` ÷ curl, same request", medianOf("`svc projects list`, the same request") / curl, 3.0],
];
const startup = ["| Start-up | ratio | target | |", "|---|---:|---:|---|"];
for (const [label, ratio, target] of goals) {
  startup.push(
    `| ${label} | ${ratio.toFixed(2)} | ≤ ${target.toFixed(1)}× | ${ratio <= target ? "met" : "missed"} |`,
  );
}

// The release matrix: every target's archive as the release script left it in cli/release/.
const matrix = ["| Target | archive | size | Bun | here |", "|---|---|---:|---|---|"];
for (const target of targets) {
  const file = join(cli, "release", archiveName(target));
  const size = existsSync(file) ? `${(statSync(file).size / 2 ** 20).toFixed(1)} MiB` : "not built";
  const here = target.name === "linux-amd64" ? "runs (every CLI test)" : "checked by format (release test)";
  matrix.push(`| ${target.name} | \`${archiveName(target)}\` | ${size} | ${bunVersion} | ${here} |`);
}

console.log(`${setting}\n\n${commands.join("\n")}\n\n${startup.join("\n")}\n\n${matrix.join("\n")}`);
if (args.includes("--write")) {
  writeSection(
    "cli",
    `## The svc command line: start-up and the release

Measured by \`npm run bench -- cli --write\` (bench/src/cli.ts) on ${new Date().toISOString().slice(0, 10)}: the
linux-amd64 single executable, each command run once per round in turns with the others. ${setting}.

${commands.join("\n")}

${startup.join("\n")}

${matrix.join("\n")}`,
  );
}
process.exitCode = goals.every(([, ratio, target]) => ratio <= target) ? 0 : 1;
