#!/usr/bin/env node
// Writes the committed SQL snapshots of the repositories (`sql/<repository>.sql` beside each listed
// repository file; the list is scripts/sql-snapshots/statements.ts), so that a change to a query is
// reviewed as a change to its SQL. Compiles only: no database is needed.
// Usage: sql-snapshots.mjs [--check]   (--check writes nothing and exits 1 when a snapshot is stale)
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { withTypeScriptModule } from "./import-typescript.mjs";

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

await withTypeScriptModule(
  join(root, "scripts/sql-snapshots/index.ts"),
  // Inside node_modules, so that the registry packages, left out of the bundle, resolve from it.
  { dir: join(root, "node_modules", ".cache", "svc-sql-snapshots"), plugins: [registryPackagesExternal] },
  async ({ currentSnapshots, staleSnapshots, writeSnapshots, STALE_MESSAGE }) => {
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
  },
);
