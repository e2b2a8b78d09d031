#!/usr/bin/env node
// `npm run bench [-- name ...] [-- --write]`: every benchmark, one after the other, each printing its
// table of ratios. Names pick benchmarks; flags (e.g. --write, which records the tables in
// docs/performance.md) are passed on to each of them.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const flags = args.filter((arg) => arg.startsWith("--"));
const only = args.filter((arg) => !arg.startsWith("--"));
const known = [
  "history",
  "throughput",
  "overload",
  "web",
  "bulk",
  "cli",
  "experiments",
  "live",
  "search",
  "cluster",
  "monitoring",
  "fairness",
];
const unknown = only.filter((name) => !known.includes(name));
if (unknown.length > 0) {
  console.error(`unknown benchmark ${unknown.join(", ")}; expected one of ${known.join(", ")}`);
  process.exit(2);
}
let failed = false;
for (const name of known.filter((name) => only.length === 0 || only.includes(name))) {
  const file = join(here, "dist", `${name}.js`);
  if (!existsSync(file)) {
    console.error(`${file} is missing: run \`npm run build\` first`);
    process.exit(2);
  }
  console.log(`\n## ${name}`);
  // The load generators run in the benchmark's process: a collector of their own that waits for a
  // core would delay requests and count as the platform's latency (docs/decisions/0010-garbage-collector-settings.md).
  const result = spawnSync(process.execPath, ["--single-threaded-gc", file, ...flags], {
    stdio: "inherit",
    env: process.env,
  });
  if (result.status !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
