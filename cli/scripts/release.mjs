#!/usr/bin/env node
// Builds the single-executable `svc` for each target with Bun's compiler (docs/decisions/0029): the
// CLI bundled from its sources, compiled to bytecode, with the target's secret-store addon embedded,
// joined to the Bun binary of the target. Everything comes from the npm registry: the Bun binaries
// (one release, targets.mjs's bunVersion, for all five) from the @oven/bun-<target> packages, the
// addons from @napi-rs/keyring-<target>.
// Usage: release.mjs [--only linux-amd64,...] [--out release] [--tag cli-vX.Y.Z]
// A release tag (--tag, or a CI run's `cli-` tag in GITHUB_REF_NAME) must name package.json's version.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { tagMismatch, tagToCheck } from "./check-tag.mjs";
import { signAdHoc } from "./macho.mjs";
import {
  bunBinaryOf,
  bunVersion,
  cachedPackage,
  executableName,
  packArchive,
  releaseCache,
  targets,
} from "./targets.mjs";

const cli = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const require = createRequire(import.meta.url);
const version = JSON.parse(readFileSync(join(cli, "package.json"), "utf8")).version;
const keyringVersion = JSON.parse(
  readFileSync(require.resolve("@napi-rs/keyring/package.json"), "utf8"),
).version;

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

mkdirSync(work, { recursive: true });
mkdirSync(releaseCache, { recursive: true });
// The compiler is the Bun of this machine's own target, at the same release.
const host = targets.find((target) => target.host === `${process.platform}-${process.arch}`);
if (!host) {
  console.error(`release: no target runs on ${process.platform}-${process.arch}, where the build runs`);
  process.exit(1);
}
const hostBun = bunFor(host);
const results = [];
for (const target of targets.filter((t) => !only || only.includes(t.name))) {
  try {
    results.push({ target: target.name, archive: buildTarget(target) });
  } catch (error) {
    results.push({ target: target.name, skipped: error instanceof Error ? error.message : String(error) });
  }
}
rmSync(work, { recursive: true, force: true });
for (const result of results) {
  console.log(result.archive ? `built   ${result.archive}` : `skipped ${result.target}: ${result.skipped}`);
}
if (!results.some((result) => result.archive)) process.exitCode = 1;

function buildTarget(target) {
  const dir = join(work, target.name);
  mkdirSync(dir, { recursive: true });
  const exe = join(dir, executableName(target));
  const settings = {
    target: target.bunTarget,
    outfile: exe,
    addon: addonFor(target),
    executablePath: bunFor(target),
  };
  const compiled = spawnSync(hostBun, [join(cli, "scripts/compile.mjs"), JSON.stringify(settings)], {
    encoding: "utf8",
    // Bun's own settings of the building shell are not the release's.
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "",
      BUN_INSTALL_CACHE_DIR: join(work, "bun-cache"),
    },
  });
  if (compiled.status !== 0)
    throw new Error(`compiling failed: ${compiled.stderr.trim() || compiled.stdout.trim()}`);
  // Bun keeps the Apple signature of its own binary, which no longer holds once the CLI is added, and
  // a Mac runs no arm64 code without a valid one: sign it ad hoc.
  if (target.os === "macos") writeFileSync(exe, signAdHoc(readFileSync(exe), executableName(target)));
  if (target === host) {
    const check = spawnSync(exe, ["--version"], { encoding: "utf8" });
    if (check.stdout.trim() !== `svc ${version}`) {
      throw new Error(`the built binary answered "${check.stdout.trim()}" ${check.stderr.trim()}`);
    }
  }
  return packArchive(target, exe, out);
}

/** The Bun binary of a target, at the release every executable is compiled with. */
function bunFor(target) {
  fetchPackage(target.bun, bunVersion);
  const binary = bunBinaryOf(target);
  if (!existsSync(binary)) throw new Error(`${target.bun}@${bunVersion} has no Bun binary`);
  return binary;
}

function addonFor(target) {
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
  const dir = cachedPackage(name, packageVersion);
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
