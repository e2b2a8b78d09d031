#!/usr/bin/env node
// Writes the committed SQL snapshots of the repositories (`sql/<repository>.sql` beside each listed
// repository file; the list is scripts/sql-snapshots/statements.ts), so that a change to a query is
// reviewed as a change to its SQL. Compiles only: no database is needed.
// Usage: sql-snapshots.mjs [--check]   (--check writes nothing and exits 1 when a snapshot is stale)
import { mkdirSync, rmSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import * as esbuild from "esbuild";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const check = process.argv.includes("--check");

/** Workspace packages (`@svc/…`, TypeScript source) are bundled; registry packages stay imports. */
const registryPackagesExternal = {
  name: "registry-packages-external",
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith("@svc/") ? undefined : { path: args.path, external: true },
    );
  },
};

// Inside node_modules, so that the registry packages, left out of the bundle, resolve from it.
const dir = join(root, "node_modules", ".cache", "svc-sql-snapshots");
mkdirSync(dir, { recursive: true });
try {
  const outfile = join(dir, "sql-snapshots.mjs");
  await esbuild.build({
    entryPoints: [join(root, "scripts/sql-snapshots/index.ts")],
    outfile,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    conditions: ["source"],
    plugins: [registryPackagesExternal],
    logLevel: "warning",
  });
  const { currentSnapshots, staleSnapshots, writeSnapshots, STALE_MESSAGE } = await import(
    pathToFileURL(outfile).href
  );
  const snapshots = await currentSnapshots();
  if (check) {
    const stale = staleSnapshots(root, snapshots);
    for (const line of stale) console.error(line);
    if (stale.length > 0) {
      console.error(STALE_MESSAGE);
      process.exitCode = 1;
    }
  } else {
    const changed = writeSnapshots(root, snapshots);
    for (const path of changed) console.log(`wrote ${path}`);
    console.log(`${snapshots.size} SQL snapshots, ${changed.length} changed`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
