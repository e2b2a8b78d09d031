import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach } from "vitest";

/**
 * A directory of its own for each test, made in the system's temporary directory before the test and
 * removed with its contents after it. Read `path` in hooks and tests, not while the suite is declared.
 */
export function directoryPerTest(prefix: string): { readonly path: string } {
  let path: string | undefined;
  beforeEach(() => {
    path = mkdtempSync(join(tmpdir(), prefix));
  });
  afterEach(() => {
    if (path) rmSync(path, { recursive: true, force: true });
    path = undefined;
  });
  return {
    get path() {
      if (!path) throw new Error("directoryPerTest: the directory exists only while a test runs");
      return path;
    },
  };
}

/** A file's permission bits, as `chmod` takes them (0o600 for a file only its owner reads and writes). */
export const permissionsOf = (path: string): number => statSync(path).mode & 0o777;
