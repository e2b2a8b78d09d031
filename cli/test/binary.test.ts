import { createHash } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startEmbedded, type Target } from "@svc/testing/platform";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { expectFailure, runSvc, type SvcOptions } from "./run-svc";

// The smoke part of the suite, run with the linux-amd64 single executable that the release builds
// (built once by the global setup). `SVC_TEST_BINARY=<it> npm test -w cli` runs every CLI test with it.
const binary = inject("svcBinary");

describe.runIf(binary !== "")("the single executable (linux-amd64)", () => {
  let platform: Target;
  let cache: string;

  beforeAll(async () => {
    cache = mkdtempSync(join(tmpdir(), "svc-binary-cache-"));
    platform = await startEmbedded();
  }, 300_000);
  afterAll(async () => {
    await platform?.stop();
    rmSync(cache, { recursive: true, force: true });
  });

  const svc = (args: string[], options: SvcOptions = {}) =>
    runSvc(args, {
      ...options,
      binary,
      env: { SVC_BASE_URL: platform.baseUrl, SVC_API_KEY: platform.ownerKey, ...options.env },
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

  it("draws a new Idempotency-Key at every start", async () => {
    const key = async () => {
      const dryRun = await svc(["projects", "create", "--name", "Keyed", "--dry-run", "--format", "json"]);
      expect(dryRun.code, dryRun.stderr).toBe(0);
      return JSON.parse(dryRun.stdout).headers["idempotency-key"];
    };
    const [first, second] = [await key(), await key()];
    expect(first).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(second).not.toBe(first);
  });

  it("keeps the exit codes: usage 3, API 1, authentication 2, network 4", async () => {
    expectFailure(await svc(["datsets", "list"]), 3);
    expectFailure(await svc(["datasets", "get", "--project-slug", "no", "--dataset-slug", "no"]), 1);
    expectFailure(await svc(["account", "get"], { env: { SVC_API_KEY: "svc_wrong_000000000000000000" } }), 2);
    expectFailure(await svc(["account", "get"], { env: { SVC_BASE_URL: "http://127.0.0.1:9" } }), 4);
  });

  it("carries the secret-store addon: without a Secret Service it says so and names SVC_API_KEY", async () => {
    const result = await svc(["auth", "login", "--with-token"], { input: "svc_x_000000000000000000" });
    const error = expectFailure(result, 2);
    expect(error.error).toContain("DBus");
    expect(error.hint).toContain("SVC_API_KEY");
  });

  it("keeps the addon in a private per-user cache and rewrites a planted file before loading it", async () => {
    const login = (home: string) =>
      svc(["auth", "login", "--with-token"], {
        input: "svc_x_000000000000000000",
        env: { XDG_CACHE_HOME: home },
      });
    const first = await login(cache);
    expect(expectFailure(first, 2).error).toContain("DBus");
    const dir = join(cache, "svc");
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    const [file, ...others] = readdirSync(dir);
    expect(others).toEqual([]);
    expect(file).toMatch(/^keyring-[0-9a-f]{16}\.node$/);
    const path = join(dir, file ?? "");
    const genuine = readFileSync(path);
    expect(file).toBe(`keyring-${createHash("sha256").update(genuine).digest("hex").slice(0, 16)}.node`);

    // A library planted under the expected name is not loaded: the carried bytes replace it.
    writeFileSync(path, "not the addon");
    const second = await login(cache);
    expect(expectFailure(second, 2).error).toContain("DBus");
    expect(readFileSync(path).equals(genuine)).toBe(true);
  });
});
