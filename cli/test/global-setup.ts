import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { ensureBuilt } from "@svc/testing/platform";
import type { TestProject } from "vitest/node";
import { buildCli } from "../scripts/build.mjs";

declare module "vitest" {
  export interface ProvidedContext {
    /** The linux-amd64 single executable built for this run; empty where it cannot be built. */
    svcBinary: string;
  }
}

/**
 * The tests drive the built CLI against the built platform, exactly as a user runs them, and the
 * single executable that the release builds for this machine (built once here for every test file).
 */
export default async function setup(project: TestProject): Promise<() => void> {
  // The `cli` and `cli-executable` projects of one run share what this builds, once: their global
  // setups run in the run's main process, one after the other.
  const shared = globalThis as { [BUILT]?: Promise<string> };
  const first = shared[BUILT] === undefined;
  shared[BUILT] ??= build();
  const dir = await shared[BUILT];
  // A binary given with SVC_TEST_BINARY (which runSvc then uses for every test) is not built.
  const binary = process.env.SVC_TEST_BINARY ?? join(dir, "svc");
  project.provide("svcBinary", existsSync(binary) ? binary : "");
  return first ? () => rmSync(dir, { recursive: true, force: true }) : () => undefined;
}

const BUILT = Symbol.for("svc.cli-tests.built");

async function build(): Promise<string> {
  await buildCli({ quiet: true });
  ensureBuilt();
  const dir = mkdtempSync(join(tmpdir(), "svc-binary-"));
  if (process.env.SVC_TEST_BINARY === undefined) buildBinary(dir);
  return dir;
}

/** `npm run release -w cli` for this machine only, unpacked: the binary CI runs against the stack. */
function buildBinary(dir: string): void {
  if (process.platform !== "linux" || process.arch !== "x64") return;
  const release = fileURLToPath(new URL("../scripts/release.mjs", import.meta.url));
  execFileSync(process.execPath, [release, "--only", "linux-amd64", "--out", dir], { stdio: "pipe" });
  execFileSync("tar", ["-xzf", join(dir, "svc-linux-amd64.tar.gz"), "-C", dir]);
}
