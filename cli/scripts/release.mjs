#!/usr/bin/env node
// Builds the single-executable `svc` for each target with Node's single executable applications:
// a small entry script, the CLI's bundles (with V8 code caches) and the secret-store addon as embedded
// assets, injected into the Node binary of the target. Everything comes from the npm registry: the Node binaries
// (one release, targets.mjs's nodeVersion, for all five) from the node-<os>-<arch> packages, the
// addons from @napi-rs/keyring-<target>, postject to inject.
// Usage: release.mjs [--only linux-amd64,...] [--out release] [--tag cli-vX.Y.Z]
// A release tag (--tag, or a CI run's `cli-` tag in GITHUB_REF_NAME) must name package.json's version.
import { execFileSync, spawnSync } from "node:child_process";
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import * as esbuild from "esbuild";
import { buildCli, exactly, lazyChildProcess, lazyPackages, sharedOptions } from "./build.mjs";
import { tagMismatch, tagToCheck } from "./check-tag.mjs";
import { signAdHoc } from "./macho.mjs";
import { executableName, nodeVersion, packArchive, targets } from "./targets.mjs";

const cli = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const require = createRequire(import.meta.url);
const version = JSON.parse(readFileSync(join(cli, "package.json"), "utf8")).version;
const keyringVersion = JSON.parse(
  readFileSync(require.resolve("@napi-rs/keyring/package.json"), "utf8"),
).version;
const SENTINEL = "NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2";

const args = process.argv.slice(2);
const option = (name) => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
};
const out = resolve(option("--out") ?? join(cli, "release"));
const only = option("--only")?.split(",");
const tag = tagToCheck(option("--tag") === undefined ? [] : [option("--tag")], process.env);
const mismatch = tag === undefined ? undefined : tagMismatch(tag, version);
if (mismatch) {
  console.error(`release: ${mismatch}`);
  process.exit(1);
}
const work = join(out, ".work");
const cache = join(cli, ".release-cache");

mkdirSync(work, { recursive: true });
mkdirSync(cache, { recursive: true });
// The preparation blob and the code caches must come from the very Node release they run in: this
// machine's own binary of that release makes them.
const host = targets.find((target) => target.host === `${process.platform}-${process.arch}`);
if (!host) {
  console.error(`release: no target runs on ${process.platform}-${process.arch}, where the build runs`);
  process.exit(1);
}
const hostNode = nodeFor(host);
const bundle = await bundleCli();
const results = [];
for (const target of targets.filter((t) => !only || only.includes(t.name))) {
  try {
    results.push({ target: target.name, archive: await buildTarget(target) });
  } catch (error) {
    results.push({ target: target.name, skipped: error instanceof Error ? error.message : String(error) });
  }
}
rmSync(work, { recursive: true, force: true });
for (const result of results) {
  console.log(result.archive ? `built   ${result.archive}` : `skipped ${result.target}: ${result.skipped}`);
}
if (!results.some((result) => result.archive)) process.exitCode = 1;

/**
 * The executable's own script is only its entry (src/sea.ts); the CLI is the bundles of dist/ (built
 * here, with their code caches), carried as assets and run on demand, and so is the addon. The
 * executable for this machine's system starts from a snapshot instead (src/sea-snapshot.ts, with
 * the CLI bundled in), which only the Node binary that makes it can run.
 */
async function bundleCli() {
  const dist = join(work, "dist");
  await buildCli({ outdir: dist, quiet: true, node: hostNode });
  const main = join(work, "svc.cjs");
  const snapshotMain = join(work, "svc-snapshot.cjs");
  await Promise.all([
    esbuild.build({ ...sharedOptions, entryPoints: [join(cli, "src/sea.ts")], outfile: main }),
    esbuild.build({
      ...sharedOptions,
      entryPoints: [join(cli, "src/sea-snapshot.ts")],
      outfile: snapshotMain,
      // Its source stays in the heap (V8 compiles a function from it when first called) that every
      // start deserializes: the less of it, the faster.
      minifyWhitespace: true,
      minifySyntax: true,
      plugins: [jsonAtBuild(), lazyChildProcess, fromAssets()],
    }),
  ]);
  return { dist, main, snapshotMain, vendors: lazyPackages.map((pkg) => `vendor/${pkg}.cjs`) };
}

/**
 * In the snapshot's bundle, JSON is read while the snapshot is made: the parsed value is in the
 * heap, without its text (as a bundle's source, the text would be kept too, and read at every start).
 */
function jsonAtBuild() {
  return {
    name: "json-at-build",
    setup(build) {
      build.onLoad({ filter: /\.json$/ }, (args) => ({
        contents: `module.exports = JSON.parse(require("node:fs").readFileSync(${JSON.stringify(args.path)}, "utf8"));`,
        loader: "js",
      }));
    },
  };
}

/**
 * In the snapshot's bundle, the registry packages loaded on demand and the secret-store addon are
 * the executable's assets, as they are to app.cjs in the other executables.
 */
function fromAssets() {
  return {
    name: "from-assets",
    setup(build) {
      const filter = exactly([...lazyPackages, "@napi-rs/keyring"]);
      build.onResolve({ filter }, (args) => ({ path: args.path, namespace: "from-assets" }));
      build.onLoad({ filter: /.*/, namespace: "from-assets" }, (args) => ({
        contents:
          args.path === "@napi-rs/keyring"
            ? 'module.exports = require("./keyring-sea").keyringAddon();'
            : `module.exports = require("./sea-bundles").seaBundles().load(${JSON.stringify(`vendor/${args.path}.cjs`)});`,
        resolveDir: join(cli, "src"),
        loader: "js",
      }));
    },
  };
}

/** The assets for these bundles of dist/: each with its code cache, when `caches` holds one. */
function bundleAssets(names, caches) {
  return Object.fromEntries(
    names.flatMap((name) => {
      const cache = join(caches, `${name}.cache`);
      return [[name, join(bundle.dist, name)], ...(existsSync(cache) ? [[`${name}.cache`, cache]] : [])];
    }),
  );
}

async function buildTarget(target) {
  const addon = await addonFor(target);
  const dir = join(work, target.name);
  mkdirSync(dir, { recursive: true });
  const exe = join(dir, executableName(target));
  if (target !== host) {
    inject(target, exe, {
      main: bundle.main,
      assets: { ...bundleAssets(["app.cjs", ...bundle.vendors], bundle.dist), "keyring.node": addon },
    });
    return packArchive(target, exe, out);
  }

  // V8 accepts a code cache only in a process started from the very snapshot that was running when
  // it was made. So the executable is built twice from the same snapshot (made alike both times, as
  // --predictable makes V8's heap the same run after run): the first writes its vendor bundles'
  // code caches beside itself, which the second carries.
  const snapshot = (assets) =>
    inject(target, exe, {
      main: bundle.snapshotMain,
      useSnapshot: true,
      assets: { ...assets, "keyring.node": addon },
    });
  snapshot(bundleAssets(bundle.vendors, dir));
  execFileSync(exe, ["--version"], { env: { ...process.env, SVC_WRITE_CODE_CACHE: "1" }, stdio: "pipe" });
  snapshot(bundleAssets(bundle.vendors, dir));

  const check = spawnSync(exe, ["--version"], { encoding: "utf8" });
  if (check.stdout.trim() !== `svc ${version}`)
    throw new Error(`the built binary answered "${check.stdout.trim()}"`);
  const vendors = spawnSync(exe, ["account", "get", "--dry-run", "--query", "role", "--format", "yaml"], {
    env: { ...process.env, SVC_DEBUG_CODE_CACHE: "1" },
    encoding: "utf8",
  });
  if (vendors.status !== 0 || !vendors.stderr.includes("accepted") || vendors.stderr.includes("rejected")) {
    throw new Error(`the built binary did not take its vendor bundles' code caches:\n${vendors.stderr}`);
  }
  return packArchive(target, exe, out);
}

/** Injects the CLI, as `sea` configures it, into a copy of the target's Node binary at `exe`. */
function inject(target, exe, sea) {
  const dir = dirname(exe);
  const config = join(dir, "sea-config.json");
  const blob = join(dir, "sea-prep.blob");
  writeFileSync(config, JSON.stringify({ ...sea, output: blob, disableExperimentalSEAWarning: true }));
  const prepared = spawnSync(hostNode, ["--predictable", "--experimental-sea-config", config], {
    encoding: "utf8",
  });
  // Node warns of a built-in module that it does not vouch for in a snapshot (node:tty, node:http, …).
  const warnings = prepared.stderr
    .split("\n")
    .filter((line) => line.includes("Warning:") && !line.includes("ExperimentalWarning"));
  if (prepared.status !== 0 || warnings.length > 0) {
    throw new Error(`the preparation blob failed: ${prepared.stderr.trim()}`);
  }
  copyFileSync(nodeFor(target), exe);
  chmodSync(exe, 0o755);
  const postject = [
    require.resolve("postject/dist/cli.js"),
    exe,
    "NODE_SEA_BLOB",
    blob,
    "--sentinel-fuse",
    SENTINEL,
  ];
  if (target.os === "macos") postject.push("--macho-segment-name", "NODE_SEA");
  const injected = spawnSync(process.execPath, postject, { encoding: "utf8" });
  if (injected.status !== 0) throw new Error(`postject failed: ${injected.stderr}`);
  // The injection drops Node's signature, and a Mac runs no unsigned arm64 code: sign it ad hoc.
  if (target.os === "macos") writeFileSync(exe, signAdHoc(readFileSync(exe), executableName(target)));
}

/** The Node binary of a target, at the release every executable is built on. */
function nodeFor(target) {
  const dir = fetchPackage(target.node, nodeVersion);
  const binary = target.os === "windows" ? join(dir, "bin", "node.exe") : join(dir, "bin", "node");
  if (!existsSync(binary)) throw new Error(`${target.node}@${nodeVersion} has no Node binary`);
  return binary;
}

async function addonFor(target) {
  const dir =
    installedPackage(`@napi-rs/${target.addon}`, keyringVersion) ??
    fetchPackage(`@napi-rs/${target.addon}`, keyringVersion);
  const file = readdirSync(dir).find((name) => name.endsWith(".node"));
  if (!file) throw new Error(`@napi-rs/${target.addon}@${keyringVersion} holds no .node file`);
  return join(dir, file);
}

/** The package as npm installed it for this machine, when it is the wanted version. */
function installedPackage(name, wanted) {
  try {
    const manifest = require.resolve(`${name}/package.json`);
    return JSON.parse(readFileSync(manifest, "utf8")).version === wanted ? dirname(manifest) : undefined;
  } catch {
    return undefined;
  }
}

/** Fetches one package from the registry with npm itself, unpacked under the release cache. */
function fetchPackage(name, packageVersion) {
  const dir = join(cache, `${name.replace("/", "__")}-${packageVersion}`);
  if (existsSync(join(dir, "package.json"))) return dir;
  mkdirSync(dir, { recursive: true });
  const packed = spawnSync(
    "npm",
    ["pack", `${name}@${packageVersion}`, "--silent", "--pack-destination", dir],
    {
      encoding: "utf8",
    },
  );
  const tarball = packed.stdout.trim().split("\n").pop();
  if (packed.status !== 0 || !tarball) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`${name}@${packageVersion} is not in the npm registry`);
  }
  execFileSync("tar", ["-xzf", join(dir, tarball), "-C", dir, "--strip-components=1"]);
  rmSync(join(dir, tarball));
  return dir;
}
