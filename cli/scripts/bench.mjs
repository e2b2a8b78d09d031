#!/usr/bin/env node
// Start-up and big-list costs of the single executable `svc` (linux-amd64, built by the release
// script when release/svc-linux-amd64.tar.gz is missing, or with --rebuild), side by side with
// `gh --version` (Debian's gh). The 10,000-item list comes from a small local HTTP server serving one
// canned page, so that what is measured is svc, not the platform.
// Usage: bench.mjs [--runs N] [--rebuild]. Prints a Markdown table (medians, ratios to gh).
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const cli = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const args = process.argv.slice(2);
const runsAt = args.indexOf("--runs");
const runs = runsAt >= 0 ? Number(args[runsAt + 1]) : 21;
const ITEMS = 10_000;

if (process.platform !== "linux" || process.arch !== "x64") {
  console.error("bench: the single executable is built for linux-amd64 only on a linux-amd64 machine");
  process.exit(1);
}

const archive = join(cli, "release/svc-linux-amd64.tar.gz");
if (args.includes("--rebuild") || !existsSync(archive)) {
  console.error("bench: building the linux-amd64 single executable (npm run release -w cli)…");
  execFileSync(process.execPath, [join(cli, "scripts/release.mjs"), "--only", "linux-amd64"], {
    stdio: ["ignore", "ignore", "inherit"],
  });
}
const unpacked = mkdtempSync(join(tmpdir(), "svc-bench-"));
execFileSync("tar", ["-xzf", archive, "-C", unpacked]);
const svc = join(unpacked, "svc");

/** A server answering every GET with the same page of ITEMS rows, in a child process (spawnSync blocks us). */
async function startServer() {
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
  const port = await new Promise((done) => child.stdout.once("data", (chunk) => done(Number(String(chunk)))));
  return { url: `http://127.0.0.1:${port}`, stop: () => child.kill() };
}

/**
 * Runs every case once per round, round after round, so that a machine whose load changes during the
 * bench slows every case alike; returns each case's median and minimum.
 */
function measureAll(cases, env) {
  const times = cases.map(() => []);
  for (let round = 0; round < runs; round++) {
    for (const [index, [, command]] of cases.entries()) {
      const started = process.hrtime.bigint();
      const run = spawnSync(command[0], command.slice(1), { stdio: "ignore", env });
      if (run.error || run.status !== 0) {
        throw new Error(`${command.join(" ")} failed: ${run.error?.message ?? `exit ${run.status}`}`);
      }
      times[index].push(Number(process.hrtime.bigint() - started) / 1e6);
    }
  }
  return times.map((list) => {
    list.sort((a, b) => a - b);
    return { min: list[0], median: list[Math.floor(list.length / 2)] };
  });
}

const server = await startServer();
const env = {
  PATH: process.env.PATH,
  HOME: process.env.HOME,
  SVC_BASE_URL: server.url,
  SVC_API_KEY: "svc_bench",
};
const list = [svc, "datasets", "list-rows", "--project-slug", "p", "--dataset-slug", "d"];
const cases = [
  ["`gh --version`", ["gh", "--version"]],
  ["`node -e 0` (any Node program's floor)", [process.execPath, "-e", "0"]],
  ["`svc --version`", [svc, "--version"]],
  ["`svc datasets --help`", [svc, "datasets", "--help"]],
  [`list of ${ITEMS.toLocaleString("en")} rows, \`--format raw\` (no parsing)`, [...list, "--format", "raw"]],
  [
    `same, \`--query 'items[?version > \\\`5000\\\`].rowId'\``,
    [...list, "--query", "items[?version > `5000`].rowId", "--format", "json"],
  ],
  ["same, `--format table`", [...list, "--format", "table"]],
];

const load = loadavg()[0];
let results;
try {
  results = measureAll(cases, env).map((result, index) => [cases[index][0], result]);
} finally {
  server.stop();
  rmSync(unpacked, { recursive: true, force: true });
}

const gh = results[0]?.[1].median ?? Number.NaN;
const raw = results[4]?.[1].median ?? Number.NaN;
const ghVersion = spawnSync("gh", ["--version"], { encoding: "utf8" }).stdout.split("\n")[0];
const built = new Date(Number(execFileSync("stat", ["-c", "%Y", archive], { encoding: "utf8" })) * 1000);
console.log(
  `${cpus()[0]?.model ?? "unknown CPU"}, ${cpus().length} cores, Node ${process.versions.node}, ${ghVersion}; ` +
    `${runs} rounds, wall-clock ms; load average ${load.toFixed(1)} before, ${loadavg()[0].toFixed(1)} after; binary built ${built.toISOString()}`,
);
console.log("");
console.log("| Command | median | min | median / gh |");
console.log("|---|---:|---:|---:|");
for (const [index, [label, { min, median }]] of results.entries()) {
  const delta = median - raw;
  const extra = index > 4 ? ` (${delta < 0 ? "−" : "+"}${Math.abs(delta).toFixed(0)} vs raw)` : "";
  console.log(
    `| ${label} | ${median.toFixed(1)}${extra} | ${min.toFixed(1)} | ${(median / gh).toFixed(2)} |`,
  );
}
