// Runs TypeScript of the workspace from a script, with no build first: esbuild bundles one entry (the
// `@svc/…` packages from their source) into a folder, and the script imports the bundle.
import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import * as esbuild from "esbuild";

/**
 * Bundles `entry` into `dir` (made if missing), imports it and hands the module to `use`; `dir` is
 * removed afterwards, whatever `use` did. `plugins` are esbuild's, to keep some imports out of the bundle.
 */
export async function withTypeScriptModule(entry, { dir, plugins = [] }, use) {
  mkdirSync(dir, { recursive: true });
  try {
    const outfile = join(dir, "bundle.mjs");
    await esbuild.build({
      entryPoints: [entry],
      outfile,
      bundle: true,
      platform: "node",
      format: "esm",
      target: "node20",
      conditions: ["source"],
      plugins,
      logLevel: "warning",
    });
    return await use(await import(pathToFileURL(outfile).href));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
