// The release targets of CLI.md and how each is packed: `svc-<os>-<arch>.tar.gz` holding `svc`, and
// `svc-windows-amd64.zip` holding `svc.exe`. Used by release.mjs and by its tests.
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { zip } from "./zip.mjs";

/** Where release.mjs keeps the registry packages it fetches, each unpacked in a folder of its own. */
export const releaseCache = resolve(dirname(fileURLToPath(import.meta.url)), "..", ".release-cache");

/** The folder of one fetched package in the release cache. */
export const cachedPackage = (name, version) => join(releaseCache, `${name.replace("/", "__")}-${version}`);

/** The Bun binary of a target, at the pinned release, as release.mjs fetches it. */
export const bunBinaryOf = (target) =>
  join(cachedPackage(target.bun, bunVersion), "bin", target.os === "windows" ? "bun.exe" : "bun");

/**
 * The Bun release every executable is compiled with, the same for all five (docs/decisions/0029):
 * the npm registry serves its binary for every target, and a compiled `svc` starts in a quarter of
 * the time that Node's single executables took.
 */
export const bunVersion = "1.4.4";

/**
 * Every target: `bun` is the registry package of its Bun binary and `bunTarget` Bun's name for it
 * (x86-64 takes the "baseline" build, which runs on every x86-64 processor, as Node's own binaries
 * do), `addon` the package of its secret-store addon, `host` its `platform-arch`.
 */
export const targets = [
  {
    name: "linux-amd64",
    os: "linux",
    bun: "@oven/bun-linux-x64-baseline",
    bunTarget: "bun-linux-x64-baseline",
    addon: "keyring-linux-x64-gnu",
    host: "linux-x64",
  },
  {
    name: "linux-aarch64",
    os: "linux",
    bun: "@oven/bun-linux-aarch64",
    bunTarget: "bun-linux-arm64",
    addon: "keyring-linux-arm64-gnu",
    host: "linux-arm64",
  },
  {
    name: "macos-amd64",
    os: "macos",
    bun: "@oven/bun-darwin-x64-baseline",
    bunTarget: "bun-darwin-x64-baseline",
    addon: "keyring-darwin-x64",
    host: "darwin-x64",
  },
  {
    name: "macos-arm64",
    os: "macos",
    bun: "@oven/bun-darwin-aarch64",
    bunTarget: "bun-darwin-arm64",
    addon: "keyring-darwin-arm64",
    host: "darwin-arm64",
  },
  {
    name: "windows-amd64",
    os: "windows",
    bun: "@oven/bun-windows-x64-baseline",
    bunTarget: "bun-windows-x64-baseline",
    addon: "keyring-win32-x64-msvc",
    host: "win32-x64",
  },
];

/** The name of the executable inside a target's archive. */
export const executableName = (target) => (target.os === "windows" ? "svc.exe" : "svc");

/** The file name of a target's archive. */
export const archiveName = (target) =>
  target.os === "windows" ? `svc-${target.name}.zip` : `svc-${target.name}.tar.gz`;

/**
 * Packs the executable `exe` (already named executableName(target)) into `out`/archiveName(target),
 * as the only file of the archive, executable. Returns the archive's path.
 */
export function packArchive(target, exe, out) {
  if (basename(exe) !== executableName(target)) {
    throw new Error(`the executable of ${target.name} must be named ${executableName(target)}`);
  }
  mkdirSync(out, { recursive: true });
  const archive = join(out, archiveName(target));
  if (target.os === "windows") {
    writeFileSync(archive, zip([{ name: executableName(target), data: readFileSync(exe), mode: 0o755 }]));
  } else {
    execFileSync("tar", ["-czf", archive, "-C", dirname(exe), executableName(target)]);
  }
  return archive;
}
