#!/usr/bin/env node
// Bundles the CLI into dist/svc.cjs. The HTTP client, YAML, JMESPath and the D-Bus client go into
// dist/vendor/*.cjs and are required only when a command needs them, so `svc --version` and help read
// one small file. The secret-store addon (a native module) stays in node_modules.
import { spawnSync } from "node:child_process";
import { chmodSync, readFileSync, rmSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import * as esbuild from "esbuild";

const cli = resolve(dirname(fileURLToPath(import.meta.url)), "..");
/** Registry packages loaded on demand, each bundled on its own. */
export const lazyPackages = ["undici", "yaml", "jmespath", "dbus-native"];

/** JSON is parsed at run time with JSON.parse, which is faster than evaluating an object literal. */
export const jsonAsText = {
  name: "json-as-text",
  setup(build) {
    build.onLoad({ filter: /\.json$/ }, (args) => ({
      contents: `module.exports = JSON.parse(${JSON.stringify(JSON.stringify(JSON.parse(readFileSync(args.path, "utf8"))))});`,
      loader: "js",
    }));
  },
};

/**
 * commander requires node:child_process for executable subcommands, which svc does not use; loading
 * it costs several milliseconds at every start, so it is required on first use instead.
 */
export const lazyChildProcess = {
  name: "lazy-child-process",
  setup(build) {
    build.onResolve({ filter: /^node:child_process$/ }, (args) =>
      args.importer.includes("commander") ? { path: "child_process", namespace: "lazy" } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: "lazy" }, () => ({
      contents:
        "let m; const load = () => (m ??= require('node:' + 'child_process')); module.exports = new Proxy({}, { get: (_, key) => load()[key] });",
      loader: "js",
    }));
  },
};

/**
 * Resolves some imports to a plain `require` of a file beside the bundle (a real `import()` would
 * start Node's ESM loader, which costs more than the module itself). `targets` maps an import
 * specifier to the path required at run time.
 */
export function requireBeside(targets) {
  const filter = exactly(Object.keys(targets));
  return {
    name: "require-beside",
    setup(build) {
      build.onResolve({ filter, namespace: "file" }, (args) => ({
        path: args.path,
        namespace: "require-beside",
      }));
      build.onResolve({ filter: /.*/, namespace: "require-beside" }, (args) => ({
        path: args.path,
        external: true,
      }));
      build.onLoad({ filter: /.*/, namespace: "require-beside" }, (args) => ({
        contents: `module.exports = require(${JSON.stringify(targets[args.path])});`,
        loader: "js",
      }));
    },
  };
}

/** An esbuild filter for exactly these import specifiers. */
export function exactly(specifiers) {
  const names = specifiers.map((name) => name.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&"));
  return new RegExp(`^(${names.join("|")})$`);
}

const vendorTargets = Object.fromEntries(lazyPackages.map((name) => [name, `./vendor/${name}.cjs`]));

export const sharedOptions = {
  bundle: true,
  platform: "node",
  format: "cjs",
  target: "node20",
  conditions: ["source"],
  legalComments: "none",
  logLevel: "warning",
};

/**
 * Builds the CLI into `outdir`. Its code caches are made by `node` (the running Node by default), as
 * V8 accepts a cache only in the Node release that made it.
 */
export async function buildCli({ outdir = join(cli, "dist"), quiet = false, node = process.execPath } = {}) {
  const started = Date.now();
  rmSync(outdir, { recursive: true, force: true });
  const entry = join(outdir, "svc.cjs");
  await Promise.all([
    esbuild.build({
      ...sharedOptions,
      entryPoints: [join(cli, "src/bin.ts")],
      outfile: entry,
      plugins: [jsonAsText],
      banner: { js: "#!/usr/bin/env node" },
    }),
    esbuild.build({
      ...sharedOptions,
      entryPoints: [join(cli, "src/app.ts")],
      outfile: join(outdir, "app.cjs"),
      plugins: [
        jsonAsText,
        lazyChildProcess,
        requireBeside({ ...vendorTargets, "@napi-rs/keyring": "@napi-rs/keyring" }),
      ],
    }),
    ...lazyPackages.map((name) =>
      esbuild.build({
        ...sharedOptions,
        stdin: { contents: `module.exports = require(${JSON.stringify(name)});`, resolveDir: cli },
        outfile: join(outdir, "vendor", `${name}.cjs`),
      }),
    ),
  ]);
  chmodSync(entry, 0o755);
  writeCodeCache(entry, node);
  if (!quiet) console.log(`built ${entry} in ${Date.now() - started} ms`);
  return entry;
}

/**
 * Runs the CLI once (a resource's help, the commonest start) so that V8 compiles what a start needs,
 * and keeps the compiled code beside app.cjs.
 */
function writeCodeCache(entry, node) {
  const run = spawnSync(node, [entry, "datasets", "--help"], {
    env: { ...process.env, SVC_WRITE_CODE_CACHE: "1" },
    encoding: "utf8",
  });
  if (run.status !== 0) {
    throw new Error(`the warm-up run of ${entry} failed (exit ${run.status}): ${run.stderr.trim()}`);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await buildCli({ quiet: process.argv.includes("--quiet") });
}
