#!/usr/bin/env node
// `npm run bench`: every benchmark, one after the other, each printing its table of ratios.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const only = process.argv.slice(2);
const benches = ["history", "throughput"].filter((name) => only.length === 0 || only.includes(name));
let failed = false;
for (const name of benches) {
  const file = join(here, "dist", `${name}.js`);
  if (!existsSync(file)) continue;
  console.log(`\n## ${name}`);
  const result = spawnSync(process.execPath, [file], { stdio: "inherit", env: process.env });
  if (result.status !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
