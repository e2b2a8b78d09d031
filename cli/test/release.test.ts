import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { programsAvailable } from "@svc/testing/programs";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { packageVersion, tagMismatch, tagToCheck } from "../scripts/check-tag.mjs";
import { cpuTypes, readMachO, verifySignature } from "../scripts/macho.mjs";
import {
  archiveName,
  bunVersion,
  executableName,
  packArchive,
  type Target,
  targets,
} from "../scripts/targets.mjs";
import { runSvc } from "./run-svc";

const script = (name: string) => fileURLToPath(new URL(`../scripts/${name}`, import.meta.url));
const version = packageVersion();
/** Python's zipfile reads the Windows archive back. */
const python3 = programsAvailable("python3");

describe("the release tag", () => {
  it("is cli-v<the version of cli/package.json>, the version svc --version prints", async () => {
    expect(version).toMatch(/^\d+\.\d+\.\d+$/);
    expect((await runSvc(["--version"])).stdout).toBe(`svc ${version}\n`);
    expect(tagMismatch(`cli-v${version}`, version)).toBeUndefined();
    expect(tagMismatch("cli-v9.9.9", "0.1.0")).toMatch(
      /^the tag cli-v9\.9\.9 names version 9\.9\.9, but cli\/package\.json is at 0\.1\.0/,
    );
    for (const malformed of ["v0.1.0", "cli-0.1.0", "cli-v0.1", "sdk-v0.1.0", "cli-v0.1.0 "]) {
      expect(tagMismatch(malformed, "0.1.0"), malformed).toMatch(/is not of the form cli-v<major>/);
    }
  });

  it("is taken from the argument, else from a CI run's cli- tag only", () => {
    expect(tagToCheck(["cli-v1.2.3"], { GITHUB_REF_NAME: "cli-v0.0.1" })).toBe("cli-v1.2.3");
    expect(tagToCheck([], { GITHUB_REF_NAME: "cli-v0.0.1" })).toBe("cli-v0.0.1");
    expect(tagToCheck([], { GITHUB_REF_NAME: "main" })).toBeUndefined();
    expect(tagToCheck([], { GITHUB_REF_NAME: "sdk-v2.0.0" })).toBeUndefined();
    expect(tagToCheck([], {})).toBeUndefined();
  });

  it("is checked by `npm run check-tag` and by the release script before anything is built", () => {
    const run = (file: string, args: string[], env: Record<string, string> = {}) =>
      spawnSync(process.execPath, [script(file), ...args], {
        encoding: "utf8",
        env: { PATH: process.env.PATH ?? "", ...env },
      });
    expect(run("check-tag.mjs", [`cli-v${version}`]).status).toBe(0);
    expect(run("check-tag.mjs", []).status).toBe(0);
    const wrong = run("check-tag.mjs", ["cli-v99.0.0"]);
    expect(wrong.status).toBe(1);
    expect(wrong.stderr).toContain(`but cli/package.json is at ${version}`);
    expect(run("check-tag.mjs", [], { GITHUB_REF_NAME: "cli-v99.0.0" }).status).toBe(1);

    const out = mkdtempSync(join(tmpdir(), "svc-release-tag-"));
    try {
      const release = run("release.mjs", ["--only", "linux-amd64", "--out", out], {
        GITHUB_REF_NAME: "cli-v99.0.0",
      });
      expect(release.status).toBe(1);
      expect(release.stderr).toContain("release: the tag cli-v99.0.0 names version 99.0.0");
      expect(execFileSync("ls", ["-A", out], { encoding: "utf8" })).toBe("");
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});

describe("the release archives", () => {
  const dir = mkdtempSync(join(tmpdir(), "svc-archives-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("are named svc-<os>-<arch>.tar.gz for every target, and svc-windows-amd64.zip", () => {
    expect(targets.map(archiveName)).toEqual([
      "svc-linux-amd64.tar.gz",
      "svc-linux-aarch64.tar.gz",
      "svc-macos-amd64.tar.gz",
      "svc-macos-arm64.tar.gz",
      "svc-windows-amd64.zip",
    ]);
    expect(targets.map(executableName)).toEqual(["svc", "svc", "svc", "svc", "svc.exe"]);
  });

  it.for(targets.map((target) => [target.name, target] as const))(
    "%s: holds the one executable, executable",
    ([_name, target], { skip }) => {
      skip(target.os === "windows" && !python3, "python3 is missing");
      const build = join(dir, target.name);
      mkdirSync(build, { recursive: true });
      const exe = join(build, executableName(target));
      writeFileSync(exe, `binary of ${target.name}`, { mode: 0o755 });
      const archive = packArchive(target, exe, join(dir, "out"));
      expect(archive).toBe(join(dir, "out", archiveName(target)));
      if (target.os === "windows") {
        // Read back with Python's zipfile: names, Unix mode and content.
        const listing = execFileSync(
          "python3",
          [
            "-c",
            "import sys, zipfile, json; z = zipfile.ZipFile(sys.argv[1]); print(json.dumps([[i.filename, i.external_attr >> 16, z.read(i).decode()] for i in z.infolist()]))",
            archive,
          ],
          { encoding: "utf8" },
        );
        expect(JSON.parse(listing)).toEqual([["svc.exe", 0o100755, "binary of windows-amd64"]]);
      } else {
        const listing = execFileSync("tar", ["-tvzf", archive], { encoding: "utf8" }).trim().split("\n");
        expect(listing).toHaveLength(1);
        expect(listing[0]).toMatch(/^-rwxr-xr-x .* svc$/);
        const unpacked = join(dir, `unpacked-${target.name}`);
        mkdirSync(unpacked);
        execFileSync("tar", ["-xzf", archive, "-C", unpacked]);
        expect(readFileSync(join(unpacked, "svc"), "utf8")).toBe(`binary of ${target.name}`);
      }
    },
  );

  it("refuses an executable under another name than its target's", () => {
    const windows = targets.find((target) => target.os === "windows");
    const wrong = join(dir, "svc");
    writeFileSync(wrong, "x");
    expect(() => windows && packArchive(windows, wrong, dir)).toThrow("must be named svc.exe");
  });
});

/**
 * `npm run release -w cli` for all five targets: the linux-amd64 archive is the one the global setup
 * built (and every CLI test runs); the four others are built here. This machine runs only the first,
 * so the others are checked by their format: the executable's header and architecture, the CLI and
 * the target's own secret-store addon in the executable's payload, and on macOS a code signature
 * that holds.
 */
describe("the five executables", () => {
  const binary = inject("svcBinary");
  const out = mkdtempSync(join(tmpdir(), "svc-release-"));
  const others = targets.filter((target) => target.name !== "linux-amd64");
  const archiveOf = (target: Target) =>
    target.name === "linux-amd64"
      ? join(dirname(binary), archiveName(target))
      : join(out, archiveName(target));
  beforeAll(() => {
    execFileSync(
      process.execPath,
      [script("release.mjs"), "--only", others.map((t) => t.name).join(","), "--out", out],
      {
        stdio: "pipe",
      },
    );
  }, 600_000);
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it.runIf(binary !== "").for(targets.map((target) => [target.name, target] as const))(
    "%s: the archive holds svc, compiled by Bun for that system and architecture, with its own addon",
    { timeout: 60_000 },
    ([_name, target], { skip }) => {
      skip(target.os === "windows" && !python3, "python3 is missing");
      const executable = unpack(target, archiveOf(target));
      // The Bun release is the pinned one, and the payload holds the CLI and the target's addon.
      expect(executable.includes(`Bun v${bunVersion}`)).toBe(true);
      const root = target.os === "windows" ? "B:/~BUN/root/" : "/$bunfs/root/";
      expect(executable.includes(`${root}svc`)).toBe(true);
      expect(executable.includes(`${root}${target.addon.replace("keyring-", "keyring.")}-`)).toBe(true);
      for (const other of targets.filter((t) => t !== target)) {
        expect(executable.includes(`${other.addon.replace("keyring-", "keyring.")}-`), other.name).toBe(
          false,
        );
      }
      if (target.os === "linux") {
        expect(executable.subarray(0, 4).toString("latin1")).toBe("\x7fELF");
        expect(executable[4]).toBe(2); // 64-bit
        expect(executable.readUInt16LE(18)).toBe(target.name === "linux-amd64" ? 62 : 183); // x86-64, AArch64
        expect(elfSections(executable)).toContain(".bun");
      } else if (target.os === "macos") {
        const macho = readMachO(executable);
        expect(macho.header.cpuType).toBe(target.name === "macos-arm64" ? cpuTypes.arm64 : cpuTypes.x86_64);
        expect(macho.header.fileType).toBe(2); // an executable
        expect(macho.segments.map((segment) => segment.name)).toContain("__BUN");
        expect(verifySignature(executable)).toBe("svc");
      } else {
        expect(executable.subarray(0, 2).toString("latin1")).toBe("MZ");
        const pe = executable.readUInt32LE(0x3c);
        expect(executable.subarray(pe, pe + 4).toString("latin1")).toBe("PE\0\0");
        expect(executable.readUInt16LE(pe + 4)).toBe(0x8664); // x86-64
        expect(executable.readUInt16LE(pe + 24 + 68)).toBe(3); // a console program
        expect(peSections(executable, pe)).toContain(".bun");
      }
    },
  );

  it.runIf(binary !== "")("linux-amd64 runs here and prints the release's version", () => {
    expect(execFileSync(binary, ["--version"], { encoding: "utf8" })).toBe(`svc ${version}\n`);
  });

  /** The one file of a target's archive, as bytes. */
  function unpack(target: Target, archive: string): Buffer {
    const dir = mkdtempSync(join(out, `unpacked-${target.name}-`));
    if (target.os === "windows") {
      execFileSync("python3", [
        "-c",
        "import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])",
        archive,
        dir,
      ]);
    } else {
      execFileSync("tar", ["-xzf", archive, "-C", dir]);
    }
    expect(execFileSync("ls", ["-A", dir], { encoding: "utf8" })).toBe(`${executableName(target)}\n`);
    return readFileSync(join(dir, executableName(target)));
  }
});

/** The names of an ELF64 little-endian file's sections. */
function elfSections(file: Buffer): string[] {
  const offset = Number(file.readBigUInt64LE(0x28));
  const size = file.readUInt16LE(0x3a);
  const count = file.readUInt16LE(0x3c);
  const header = (index: number) => offset + index * size;
  const names = Number(file.readBigUInt64LE(header(file.readUInt16LE(0x3e)) + 0x18));
  return Array.from({ length: count }, (_, index) => {
    const start = names + file.readUInt32LE(header(index));
    return file.subarray(start, file.indexOf(0, start)).toString("latin1");
  });
}

/** The names of a PE file's sections (the header at `pe`). */
function peSections(file: Buffer, pe: number): string[] {
  const count = file.readUInt16LE(pe + 6);
  const table = pe + 24 + file.readUInt16LE(pe + 20);
  return Array.from({ length: count }, (_, index) =>
    file
      .subarray(table + index * 40, table + index * 40 + 8)
      .toString("latin1")
      .replace(/\0+$/, ""),
  );
}
