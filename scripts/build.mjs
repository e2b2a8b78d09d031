#!/usr/bin/env node
// Bundles each deployable into one ES module under its dist/: workspace packages are inlined, registry
// packages stay external (they are installed beside it). What an entry loads with `await import()`
// goes into dist/chunks/ and is evaluated only then: a service starts OpenTelemetry before it imports
// `pg` or `http`, which the instrumentations patch as they load. Then the web application, the
// command-line client (svc) and the Python SDK's wheel. Usage: build.mjs [--quiet] [package ...]
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import * as esbuild from "esbuild";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const args = process.argv.slice(2);
const quiet = args.includes("--quiet");
const only = args.filter((a) => !a.startsWith("--"));

/** Every process entry point: [workspace folder, entry, output]. */
const entries = [
  ["services/auth", "src/main.ts", "dist/main.js"],
  ["services/dataset-writer", "src/main.ts", "dist/main.js"],
  ["services/reader", "src/main.ts", "dist/main.js"],
  ["services/trace-ingest", "src/main.ts", "dist/main.js"],
  ["services/experiments", "src/main.ts", "dist/main.js"],
  ["services/gateway", "src/main.ts", "dist/main.js"],
  ["services/embedded", "src/main.ts", "dist/main.js"],
  ["shared/db", "src/main.ts", "dist/migrate.js"],
  ["bench", "src/history.ts", "dist/history.js"],
  ["bench", "src/throughput.ts", "dist/throughput.js"],
  ["bench", "src/overload.ts", "dist/overload.js"],
  ["bench", "src/web.ts", "dist/web.js"],
  ["bench", "src/bulk.ts", "dist/bulk.js"],
  ["bench", "src/cli.ts", "dist/cli.js"],
  ["bench", "src/experiments.ts", "dist/experiments.js"],
  ["bench", "src/live.ts", "dist/live.js"],
  ["bench", "src/search.ts", "dist/search.js"],
  ["bench", "src/cluster.ts", "dist/cluster.js"],
  ["bench", "src/monitoring.ts", "dist/monitoring.js"],
  ["bench", "src/fairness.ts", "dist/fairness.js"],
];

const started = Date.now();
const selected = entries
  .filter(([dir, entry]) => existsSync(join(root, dir, entry)))
  .filter(([dir]) => only.length === 0 || only.includes(readPackage(dir).name) || only.includes(dir));
const results = await Promise.all(
  selected.map(([dir, entry, out]) =>
    esbuild.build({
      entryPoints: { [basename(out, ".js")]: join(root, dir, entry) },
      outdir: join(root, dir, dirname(out)),
      splitting: true,
      chunkNames: "chunks/[name]-[hash]",
      bundle: true,
      platform: "node",
      format: "esm",
      target: "node20",
      sourcemap: true,
      conditions: ["source"],
      external: externalsOf(dir),
      banner: {
        js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
      },
      logLevel: "warning",
      metafile: true,
    }),
  ),
);
// The web application, which the gateway serves: built by Vite, after the processes (in parallel it
// would only share the two cores), unless another package alone was asked for.
if (only.length === 0 || only.includes("@svc/web") || only.includes("web")) await buildWeb();
// svc, by its own build script, so that `npm run build` leaves nothing unbuilt: a bundle and its code
// cache, about 0.25 s of the whole build's 1.5 s (`npm start` too); a filter naming others skips it.
if (only.length === 0 || only.includes("svc-cli") || only.includes("cli")) await buildSvc();
// The Python SDK's wheel, which pip installs with no package index (about 0.1 s).
if (only.length === 0 || only.includes("svc-sdk") || only.includes("sdks/python")) buildPythonWheel();

pruneChunks(
  selected.map(([dir, , out]) => join(root, dir, dirname(out), "chunks")),
  new Set(results.flatMap((result) => Object.keys(result.metafile.outputs).map((file) => resolve(file)))),
);
if (!quiet) console.log(`built in ${Date.now() - started} ms`);

/**
 * Deletes chunks that this build did not write, once they are an hour old: a process started from the
 * previous build may still be about to import its own (their names are content hashes).
 */
function pruneChunks(dirs, fresh) {
  const before = Date.now() - 60 * 60 * 1000;
  for (const dir of new Set(dirs)) {
    if (!existsSync(dir)) continue;
    for (const name of readdirSync(dir)) {
      const file = join(dir, name);
      if (!fresh.has(file) && !fresh.has(file.replace(/\.map$/, "")) && statSync(file).mtimeMs < before) {
        rmSync(file, { force: true });
      }
    }
  }
}

function readPackage(dir) {
  return JSON.parse(readFileSync(join(root, dir, "package.json"), "utf8"));
}

async function buildWeb() {
  const { build } = await import("vite");
  await build({ root: join(root, "web"), logLevel: quiet ? "warn" : "info" });
}

async function buildSvc() {
  const { buildCli } = await import("../cli/scripts/build.mjs");
  await buildCli({ quiet });
}

/** Without Python the rest of the build goes on, and says so, unless the wheel alone was asked for. */
function buildPythonWheel() {
  const python = process.env.PYTHON ?? "python3";
  const script = join(root, "sdks/python/scripts/build_wheel.py");
  const run = spawnSync(python, [script, ...(quiet ? ["--quiet"] : [])], { stdio: "inherit" });
  if (run.error?.code === "ENOENT" && only.length === 0) {
    console.warn(`${python} not found: the Python SDK's wheel was not built (PYTHON names another)`);
  } else if (run.error) {
    throw run.error;
  } else if (run.status !== 0) {
    process.exit(run.status ?? 1);
  }
}

/** Registry dependencies of a package and of the workspace packages it pulls in. */
function externalsOf(dir, seen = new Set()) {
  const pkg = readPackage(dir);
  const out = new Set();
  for (const name of Object.keys({ ...pkg.dependencies, ...pkg.optionalDependencies })) {
    if (name.startsWith("@svc/")) {
      const workspace = workspaceDir(name);
      if (workspace && !seen.has(workspace)) {
        seen.add(workspace);
        for (const dep of externalsOf(workspace, seen)) out.add(dep);
      }
    } else {
      out.add(name);
      out.add(`${name}/*`);
    }
  }
  return [...out];
}

function workspaceDir(name) {
  const rootPkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
  return rootPkg.workspaces.find((dir) => readPackage(dir).name === name);
}
