import { accessSync, appendFileSync, constants, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, delimiter, join, relative } from "node:path";
import { expect } from "vitest";

/**
 * The programs the tests drive for real, and the Debian package that installs each (`.ci/run`
 * installs them all; a test checks that it does). A program not listed here is taken to be installed
 * by the package of its own name.
 */
export const DEBIAN_PACKAGES: Readonly<Record<string, string>> = {
  chromium: "chromium",
  "dbus-run-session": "dbus",
  "dbus-send": "dbus",
  fish: "fish",
  initdb: "postgresql-15",
  pg_basebackup: "postgresql-15",
  pg_ctl: "postgresql-15",
  pgbouncer: "pgbouncer",
  "gnome-keyring-daemon": "gnome-keyring",
  mandoc: "mandoc",
  openssl: "openssl",
  python3: "python3",
  "secret-tool": "libsecret-tools",
  tinyproxy: "tinyproxy",
  zsh: "zsh",
};

export const packageOf = (program: string): string => DEBIAN_PACKAGES[basename(program)] ?? basename(program);

/** The one command that installs the packages of `programs`. */
export function installCommand(programs: readonly string[]): string {
  return `sudo apt-get install ${[...new Set(programs.map(packageOf))].join(" ")}`;
}

/**
 * Where `program` is, as a shell would find it: itself when it names a path, else the first
 * executable file of that name in a directory of `path`.
 */
export function findProgram(program: string, path = process.env.PATH ?? ""): string | undefined {
  const candidates = program.includes("/")
    ? [program]
    : path
        .split(delimiter)
        .filter(Boolean)
        .map((dir) => join(dir, program));
  return candidates.find(isExecutableFile);
}

function isExecutableFile(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/**
 * Whether every one of `programs` is there, for `describe.runIf` and `it.runIf`. A test that needs a
 * missing one is skipped, and the run names it at the end with the command that installs it (see
 * `recordMissingPrograms`), unless `SVC_REQUIRE_INFRA=1` (CI) makes that a failure: then this throws,
 * naming the programs.
 */
export function programsAvailable(...programs: string[]): boolean {
  const missing = programs.filter((program) => findProgram(program) === undefined);
  if (missing.length === 0) return true;
  const named = missing.join(", ");
  if (process.env.SVC_REQUIRE_INFRA === "1") {
    throw new Error(
      `SVC_REQUIRE_INFRA=1 but ${named} ${missing.length === 1 ? "is" : "are"} not installed: ${installCommand(missing)}`,
    );
  }
  const record = process.env[RECORD];
  const file = expect.getState().testPath;
  const where = file ? relative(process.cwd(), file) : "";
  if (record) {
    appendFileSync(record, missing.map((program) => `${JSON.stringify({ program, where })}\n`).join(""));
  } else {
    console.warn(`\n*** SKIPPING tests that need ${named}: ${installCommand(missing)} ***\n`);
  }
  return false;
}

/** The file the test workers append missing programs to, named by the run's global setup. */
const RECORD = "SVC_TEST_MISSING_PROGRAMS";

export interface MissingProgram {
  program: string;
  /** The test file whose tests were skipped for want of it. */
  where: string;
}

/**
 * For the run's global setup, before any test file loads: starts the record of missing programs that
 * the test workers (which inherit the variable) append to. The function returned prints what was
 * skipped, after the last test, and removes the record.
 */
export function recordMissingPrograms(): () => void {
  const dir = mkdtempSync(join(tmpdir(), "svc-missing-programs-"));
  const file = join(dir, "missing.jsonl");
  const outer = process.env[RECORD];
  process.env[RECORD] = file;
  return () => {
    if (outer === undefined) delete process.env[RECORD];
    else process.env[RECORD] = outer;
    let lines: string[] = [];
    try {
      lines = readFileSync(file, "utf8").split("\n").filter(Boolean);
    } catch {
      // No test needed a program that is missing: nothing was written.
    }
    rmSync(dir, { recursive: true, force: true });
    const summary = missingProgramsSummary(lines.map((line) => JSON.parse(line) as MissingProgram));
    if (summary) console.warn(summary);
  };
}

/** What the end of a run says of the tests it skipped, or "" when none was. */
export function missingProgramsSummary(missing: readonly MissingProgram[]): string {
  const files = new Map<string, Set<string>>();
  for (const { program, where } of missing) {
    const set = files.get(program) ?? new Set();
    if (where) set.add(where);
    files.set(program, set);
  }
  if (files.size === 0) return "";
  const programs = [...files.keys()].sort();
  const width = Math.max(...programs.map((program) => program.length));
  return [
    "",
    "*** SKIPPED tests that need programs this machine does not have:",
    ...programs.map(
      (program) => `***   ${program.padEnd(width)}  ${[...(files.get(program) ?? [])].sort().join(", ")}`,
    ),
    `*** Install them with: ${installCommand(programs)}`,
    "*** (SVC_REQUIRE_INFRA=1, as CI sets it, makes these skips failures.)",
    "",
  ].join("\n");
}
