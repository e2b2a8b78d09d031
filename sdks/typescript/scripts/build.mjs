#!/usr/bin/env node
// Builds the publishable package: one ES module and one CommonJS bundle, each with the declarations
// beside it (dist/cjs has its own package.json so that Node and TypeScript read it as CommonJS).
import { execFileSync } from "node:child_process";
import { copyFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import * as esbuild from "esbuild";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const dist = join(root, "dist");
rmSync(dist, { recursive: true, force: true });

const common = {
  entryPoints: [join(root, "src/index.ts")],
  bundle: true,
  platform: "neutral",
  target: "es2022",
  sourcemap: true,
  logLevel: "warning",
};
await Promise.all([
  esbuild.build({ ...common, format: "esm", outfile: join(dist, "esm/index.js") }),
  esbuild.build({ ...common, format: "cjs", outfile: join(dist, "cjs/index.js") }),
]);
writeFileSync(join(dist, "esm/package.json"), `${JSON.stringify({ type: "module" }, null, 2)}\n`);
writeFileSync(join(dist, "cjs/package.json"), `${JSON.stringify({ type: "commonjs" }, null, 2)}\n`);

const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
execFileSync(process.execPath, [tsc, "-p", join(root, "tsconfig.build.json")], { stdio: "inherit" });
for (const file of readdirSync(join(dist, "esm"))) {
  if (file.endsWith(".d.ts")) copyFileSync(join(dist, "esm", file), join(dist, "cjs", file));
}
if (!process.argv.includes("--quiet")) console.log(`built ${dist}`);
