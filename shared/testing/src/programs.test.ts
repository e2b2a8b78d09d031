import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { root } from "./processes";
import {
  DEBIAN_PACKAGES,
  findProgram,
  missingProgramsSummary,
  programsAvailable,
  recordMissingPrograms,
} from "./programs";

const dir = mkdtempSync(join(tmpdir(), "svc-programs-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A directory for PATH holding an executable `present`, a file `readable` that is not executable, and a directory `folder`. */
const bin = join(dir, "bin");
mkdirSync(join(bin, "folder"), { recursive: true });
writeFileSync(join(bin, "present"), "#!/bin/sh\n");
chmodSync(join(bin, "present"), 0o755);
writeFileSync(join(bin, "readable"), "");
chmodSync(join(bin, "readable"), 0o644);
const path = `${join(dir, "empty")}:${bin}`;

describe("findProgram", () => {
  it("finds an executable file in a directory of PATH, as a shell does", () => {
    expect(findProgram("present", path)).toBe(join(bin, "present"));
  });

  it("finds nothing for a name on no directory of PATH, a file that is not executable, or a directory", () => {
    expect(findProgram("svc-no-such-program", path)).toBeUndefined();
    expect(findProgram("readable", path)).toBeUndefined();
    expect(findProgram("folder", path)).toBeUndefined();
    expect(findProgram("present", "")).toBeUndefined();
  });

  it("takes a program given by its path as that file, whatever PATH holds", () => {
    expect(findProgram(join(bin, "present"), "")).toBe(join(bin, "present"));
    expect(findProgram(join(bin, "svc-no-such-program"), path)).toBeUndefined();
  });
});

describe("programsAvailable", () => {
  let record: string;
  beforeEach(() => {
    // Records to a file of this test's own, not the run's: the run's summary must not list these.
    record = join(mkdtempSync(join(dir, "record-")), "missing.jsonl");
    vi.stubEnv("SVC_TEST_MISSING_PROGRAMS", record);
    vi.stubEnv("SVC_REQUIRE_INFRA", "");
    vi.stubEnv("PATH", path);
  });
  afterEach(() => vi.unstubAllEnvs());

  const recorded = () =>
    readFileSync(record, "utf8")
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line));

  it("is true when every program is there, and records nothing", () => {
    expect(programsAvailable("present", join(bin, "present"))).toBe(true);
    expect(() => readFileSync(record)).toThrow(/ENOENT/);
  });

  it("is false when one is missing, and records it against this test file", () => {
    expect(programsAvailable("present", "svc-no-such-program")).toBe(false);
    expect(recorded()).toEqual([
      { program: "svc-no-such-program", where: "shared/testing/src/programs.test.ts" },
    ]);
  });

  it("throws with SVC_REQUIRE_INFRA=1, naming the missing programs and the packages that install them", () => {
    vi.stubEnv("SVC_REQUIRE_INFRA", "1");
    expect(() => programsAvailable("present", "secret-tool", "dbus-send", "dbus-run-session")).toThrow(
      new Error(
        "SVC_REQUIRE_INFRA=1 but secret-tool, dbus-send, dbus-run-session are not installed: " +
          "sudo apt-get install libsecret-tools dbus",
      ),
    );
    expect(() => programsAvailable("/opt/nowhere/chromium")).toThrow(
      new Error(
        "SVC_REQUIRE_INFRA=1 but /opt/nowhere/chromium is not installed: sudo apt-get install chromium",
      ),
    );
  });
});

describe("the summary at the end of a run", () => {
  it("names each missing program with the files it skipped, and one command to install them all", () => {
    expect(
      missingProgramsSummary([
        { program: "zsh", where: "cli/test/generated.test.ts" },
        { program: "dbus-send", where: "cli/test/keyring.test.ts" },
        { program: "zsh", where: "cli/test/generated.test.ts" },
        { program: "dbus-run-session", where: "cli/test/keyring.test.ts" },
        { program: "mandoc", where: "cli/test/man-examples.test.ts" },
        { program: "mandoc", where: "cli/test/generated.test.ts" },
      ]),
    ).toBe(
      [
        "",
        "*** SKIPPED tests that need programs this machine does not have:",
        "***   dbus-run-session  cli/test/keyring.test.ts",
        "***   dbus-send         cli/test/keyring.test.ts",
        "***   mandoc            cli/test/generated.test.ts, cli/test/man-examples.test.ts",
        "***   zsh               cli/test/generated.test.ts",
        "*** Install them with: sudo apt-get install dbus mandoc zsh",
        "*** (SVC_REQUIRE_INFRA=1, as CI sets it, makes these skips failures.)",
        "",
      ].join("\n"),
    );
  });

  it("is empty when nothing was skipped", () => {
    expect(missingProgramsSummary([])).toBe("");
  });

  it("is printed by the record's teardown with what the workers appended, and the record is gone", () => {
    vi.stubEnv("SVC_REQUIRE_INFRA", "");
    vi.stubEnv("SVC_TEST_MISSING_PROGRAMS", "the run's own record");
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    try {
      const report = recordMissingPrograms();
      const file = process.env.SVC_TEST_MISSING_PROGRAMS ?? "";
      expect(file).not.toBe("the run's own record");
      vi.stubEnv("PATH", path);
      expect(programsAvailable("svc-no-such-program")).toBe(false);
      report();
      expect(warn.mock.calls.map(([message]) => message).join("\n")).toContain(
        "***   svc-no-such-program  shared/testing/src/programs.test.ts\n" +
          "*** Install them with: sudo apt-get install svc-no-such-program\n",
      );
      expect(() => readFileSync(file)).toThrow(/ENOENT/);
      expect(process.env.SVC_TEST_MISSING_PROGRAMS).toBe("the run's own record");
    } finally {
      warn.mockRestore();
      vi.unstubAllEnvs();
    }
  });
});

describe("the Debian packages of the programs", () => {
  const packages = [...new Set(Object.values(DEBIAN_PACKAGES))].sort();
  const read = (file: string) => readFileSync(join(root, file), "utf8");

  it("are all installed by CI (.ci/run)", () => {
    const listed = /^packages=\(([^)]*)\)$/m.exec(read(".ci/run"))?.[1]?.split(" ");
    expect(listed).toEqual(expect.arrayContaining(packages));
  });

  it("are the ones the README's command installs", () => {
    const command = /^sudo apt-get install (.*)$/m.exec(read("README.md"))?.[1];
    expect(command?.split(" ").sort()).toEqual(packages);
  });
});
