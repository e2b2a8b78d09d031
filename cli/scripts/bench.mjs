#!/usr/bin/env node
// Start-up time of svc against `gh --version`, and the cost of a JMESPath query and a table over
// 10,000 items. Measures the single executable when `npm run release -w cli` has built it for this
// machine, and the installed form (node dist/svc.cjs) always. Usage: bench.mjs [runs]
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import * as esbuild from "esbuild";

const cli = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const runs = Number(process.argv[2] ?? 31);
const installed = [process.execPath, join(cli, "dist/svc.cjs")];

function measure(command) {
  const times = [];
  for (let i = 0; i < runs; i++) {
    const started = process.hrtime.bigint();
    const run = spawnSync(command[0], command.slice(1), { stdio: "ignore" });
    if (run.error) return undefined;
    times.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  times.sort((a, b) => a - b);
  return { min: times[0], median: times[Math.floor(times.length / 2)] };
}

let binary;
let unpacked;
const archive = join(cli, "release/svc-linux-amd64.tar.gz");
if (process.platform === "linux" && process.arch === "x64" && existsSync(archive)) {
  unpacked = mkdtempSync(join(tmpdir(), "svc-bench-"));
  execFileSync("tar", ["-xzf", archive, "-C", unpacked]);
  binary = join(unpacked, "svc");
}

const cases = [
  ["gh --version", ["gh", "--version"]],
  ["node (empty script)", [process.execPath, "-e", "0"]],
  ...(binary
    ? [
        ["svc --version (binary)", [binary, "--version"]],
        ["svc datasets --help (binary)", [binary, "datasets", "--help"]],
      ]
    : []),
  ["svc --version (node dist)", [...installed, "--version"]],
  ["svc datasets --help (node dist)", [...installed, "datasets", "--help"]],
];

console.log(`${runs} runs each, wall-clock milliseconds`);
for (const [label, command] of cases) {
  const result = measure(command);
  console.log(
    `${label.padEnd(32)} ${result ? `min ${result.min.toFixed(1).padStart(6)}  median ${result.median.toFixed(1).padStart(6)}` : "not available"}`,
  );
}

// A query and a table over 10,000 items, in process: what --query and --format table add to a big list.
const scratch = mkdtempSync(join(tmpdir(), "svc-bench-render-"));
try {
  const outfile = join(scratch, "render.cjs");
  await esbuild.build({
    stdin: {
      contents: `export { table, csv } from "./src/output/render.ts"; export { search } from "jmespath";`,
      resolveDir: cli,
      loader: "ts",
    },
    bundle: true,
    platform: "node",
    format: "cjs",
    outfile,
    logLevel: "warning",
  });
  const { table, search } = createRequire(import.meta.url)(outfile);
  const items = Array.from({ length: 10_000 }, (_, i) => ({
    rowId: `r${i}`,
    input: { question: `question ${i}` },
    expectedOutput: i % 2 ? null : `answer ${i}`,
    version: i,
  }));
  let started = performance.now();
  const ids = search({ items }, "items[?version > `5000`].rowId");
  const queryMs = performance.now() - started;
  started = performance.now();
  const text = table({ items }, { tty: false, color: false, columns: 120 });
  const tableMs = performance.now() - started;
  console.log(`JMESPath over 10,000 items        ${queryMs.toFixed(1)} ms (${ids.length} matches)`);
  console.log(`table of 10,000 items             ${tableMs.toFixed(1)} ms (${text.length} characters)`);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
if (unpacked) rmSync(unpacked, { recursive: true, force: true });
