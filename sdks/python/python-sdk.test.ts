import { spawn, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { root as repoRoot, type Target } from "@svc/testing/platform";
import { programsAvailable } from "@svc/testing/programs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadDocument } from "../scripts/openapi-model.mjs";
import { LossyProxy } from "../testing/lossy-proxy.js";
import { platforms } from "../testing/platform.js";
import { generate, outputPath } from "./scripts/generate.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const python = process.env.PYTHON ?? "python3";

describe("the generated Python SDK", () => {
  it("matches a fresh generation from shared/contracts/openapi.json (run `node sdks/scripts/generate.mjs`)", () => {
    const check = spawnSync(process.execPath, ["sdks/scripts/generate.mjs", "--check", "python"], {
      cwd: repoRoot,
      encoding: "utf8",
    });
    expect(check.stdout + check.stderr).toBe("");
    expect(check.status).toBe(0);
    expect(generate(loadDocument())[outputPath]).toBe(readFileSync(join(repoRoot, outputPath), "utf8"));
  });
});

interface PyrightReport {
  generalDiagnostics: {
    file: string;
    severity: string;
    message: string;
    range: { start: { line: number } };
  }[];
  summary: { filesAnalyzed: number; errorCount: number };
}

describe("the Python SDK's type hints", () => {
  it("type-check in pyright's strict mode (pyproject.toml [tool.pyright])", () => {
    expect(readFileSync(join(here, "pyproject.toml"), "utf8")).toMatch(/^typeCheckingMode = "strict"$/m);
    const pyright = join(repoRoot, "node_modules/pyright/index.js");
    const check = spawnSync(process.execPath, [pyright, "--project", here, "--outputjson"], {
      cwd: here,
      encoding: "utf8",
    });
    const report = JSON.parse(check.stdout) as PyrightReport;
    const problems = report.generalDiagnostics.map(
      (d) => `${relative(here, d.file)}:${d.range.start.line + 1} ${d.severity}: ${d.message}`,
    );
    expect(problems).toEqual([]);
    // Every module of the package, the generated one included.
    expect(report.summary.filesAnalyzed).toBeGreaterThanOrEqual(8);
    expect(check.status, check.stderr).toBe(0);
  });
});

describe.runIf(programsAvailable(python)).each(platforms())(
  "the Python SDK's unittest suite against the %s platform",
  (_name, start) => {
    let platform: Target;
    let proxy: LossyProxy;

    beforeAll(async () => {
      platform = await start();
      proxy = await LossyProxy.start(platform.baseUrl);
    });

    afterAll(async () => {
      await proxy?.close();
      await platform?.stop();
    });

    it("passes every test, and skips none of those that need the platform", async () => {
      const run = await runUnittest({
        SVC_BASE_URL: platform.baseUrl,
        SVC_API_KEY: platform.ownerKey,
        SVC_ADMIN_TOKEN: platform.adminToken,
        SVC_LOSSY_BASE_URL: proxy.baseUrl,
      });
      const ran = Number(/^Ran (\d+) tests? in /m.exec(run.output)?.[1] ?? 0);
      expect(run.code, run.output).toBe(0);
      expect(ran, run.output).toBeGreaterThanOrEqual(40);
      expect(run.output.trimEnd().split("\n").at(-1), run.output).toMatch(/^OK( \(skipped=\d+\))?$/);
      const skippedOnPlatform = run.output
        .split("\n")
        .filter((line) => /tests\.test_api\b.*\.\.\. skipped/.test(line));
      expect(skippedOnPlatform, run.output).toEqual([]);
      expect(run.output).toMatch(/test_update_row_returns_version_and_version_id .*\.\.\. ok/);
      expect(run.output).toMatch(/test_resumes_after_a_dropped_connection\w* .*\.\.\. ok/);

      // The writes whose first reply the proxy lost: two retried by the SDK with the same key, one not
      // (max_retries=0). Each was applied once, as the Python tests checked on the platform.
      for (const name of [
        "rows_inserted_once",
        "a_row_edited_once",
        "a_connection_error_when_retries_are_off",
      ]) {
        expect(run.output).toMatch(new RegExp(`test_${name}\\w* .*\\.\\.\\. ok`));
      }
      expect(proxy.lost).toHaveLength(3);
      for (const key of proxy.lost) expect(key).toMatch(/^svc_idem_[0-9a-f]{32}$/);
      expect(proxy.lost.map((key) => proxy.seen.get(key)).sort()).toEqual([1, 2, 2]);
    });
  },
);

function runUnittest(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((done, fail) => {
    const child = spawn(python, ["-m", "unittest", "-v"], {
      cwd: here,
      env: { ...process.env, PYTHONDONTWRITEBYTECODE: "1", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.once("error", fail);
    child.once("close", (code) => done({ code, output }));
  });
}
