import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Platform, startPlatform } from "./platform";
import { errorOf, runSvc, type SvcOptions } from "./run-svc";

// The smoke part of the suite, run with the linux-amd64 single executable that the release builds.
const canBuild = process.platform === "linux" && process.arch === "x64";

describe.runIf(canBuild)("the single executable (linux-amd64)", () => {
  let dir: string;
  let binary: string;
  let platform: Platform;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "svc-binary-"));
    const release = fileURLToPath(new URL("../scripts/release.mjs", import.meta.url));
    execFileSync(process.execPath, [release, "--only", "linux-amd64", "--out", dir], { stdio: "pipe" });
    execFileSync("tar", ["-xzf", join(dir, "svc-linux-amd64.tar.gz"), "-C", dir]);
    binary = join(dir, "svc");
    platform = await startPlatform();
  }, 300_000);
  afterAll(async () => {
    await platform?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const svc = (args: string[], options: SvcOptions = {}) =>
    runSvc(args, {
      ...options,
      binary,
      env: { SVC_BASE_URL: platform.baseUrl, SVC_API_KEY: platform.apiKey, ...options.env },
    });

  it("prints its version and help", async () => {
    expect((await svc(["--version"])).stdout).toBe("svc 0.1.0\n");
    expect((await svc(["datasets", "--help"])).stdout).toContain("update-row");
  });

  it("creates and lists projects, and edits a row", async () => {
    const project = JSON.parse((await svc(["projects", "create", "--name", "Binary smoke"])).stdout);
    expect(project.slug).toBe("binary-smoke");
    const list = JSON.parse((await svc(["projects", "list"])).stdout);
    expect(list.items.map((item: { slug: string }) => item.slug)).toContain("binary-smoke");
    const at = ["--project-slug", "binary-smoke", "--dataset-slug", "smoke"];
    expect(
      (await svc(["datasets", "create", "--project-slug", "binary-smoke", "--name", "Smoke"])).code,
    ).toBe(0);
    expect(
      (await svc(["datasets", "insert-rows", ...at, "--json", '{"rows":[{"id":"r","input":1}]}'])).code,
    ).toBe(0);
    const edit = await svc([
      "datasets",
      "update-row",
      ...at,
      "--row-id",
      "r",
      "--expected-output",
      '{"a":1}',
    ]);
    expect(edit.code, edit.stderr).toBe(0);
    expect(JSON.parse(edit.stdout).version).toBe(2);
  });

  it("keeps the exit codes: usage 3, API 1, authentication 2, network 4", async () => {
    expect((await svc(["datsets", "list"])).code).toBe(3);
    expect((await svc(["datasets", "get", "--project-slug", "no", "--dataset-slug", "no"])).code).toBe(1);
    expect(
      (await svc(["account", "get"], { env: { SVC_API_KEY: "svc_wrong_000000000000000000" } })).code,
    ).toBe(2);
    expect((await svc(["account", "get"], { env: { SVC_BASE_URL: "http://127.0.0.1:9" } })).code).toBe(4);
  });

  it("carries the secret-store addon: without a Secret Service it says so and names SVC_API_KEY", async () => {
    const result = await svc(["auth", "login", "--with-token"], { input: "svc_x_000000000000000000" });
    expect(result.code).toBe(2);
    expect(errorOf(result).error).toContain("DBus");
    expect(errorOf(result).hint).toContain("SVC_API_KEY");
  });
});
