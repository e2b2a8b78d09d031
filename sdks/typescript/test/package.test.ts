import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Target } from "@svc/testing/platform";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { documentPath } from "../../scripts/openapi-model.mjs";
import { startPlatform } from "../../testing/platform.js";

const packageDir = join(dirname(fileURLToPath(import.meta.url)), "..");
const npm = process.platform === "win32" ? "npm.cmd" : "npm";

let platform: Target;
let workDir: string;
let consumer: string;
let packed: { filename: string; files: { path: string }[] };

beforeAll(async () => {
  workDir = mkdtempSync(join(tmpdir(), "svc-sdk-pack-"));
  const [started] = await Promise.all([startPlatform(), Promise.resolve(pack())]);
  platform = started;
});

afterAll(async () => {
  await platform?.stop();
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

/** `npm pack` (its prepack builds dist/), then an install of the tarball into an empty project. */
function pack(): void {
  const output = execFileSync(npm, ["pack", "--json", "--pack-destination", workDir], {
    cwd: packageDir,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  });
  const [entry] = JSON.parse(output.slice(output.indexOf("["))) as (typeof packed)[];
  if (!entry) throw new Error(`npm pack printed no package: ${output}`);
  packed = entry;
  consumer = join(workDir, "consumer");
  mkdirSync(consumer);
  writeFileSync(join(consumer, "package.json"), JSON.stringify({ name: "consumer", private: true }));
  execFileSync(
    npm,
    ["install", join(workDir, packed.filename), "--offline", "--no-audit", "--no-fund", "--ignore-scripts"],
    { cwd: consumer, stdio: ["ignore", "pipe", "pipe"] },
  );
}

/** One resource per tag of the committed document. */
function documentedResources(): number {
  const document = JSON.parse(readFileSync(documentPath, "utf8")) as {
    paths: Record<string, Record<string, { tags: string[] }>>;
  };
  const tags = Object.values(document.paths).flatMap((item) => Object.values(item).map((op) => op.tags[0]));
  return new Set(tags).size;
}

function node(args: string[], env: Record<string, string> = {}): string {
  const run = spawnSync(process.execPath, args, {
    cwd: consumer,
    encoding: "utf8",
    env: { ...process.env, ...env },
  });
  if (run.status !== 0) throw new Error(`node ${args.join(" ")} failed:\n${run.stdout}${run.stderr}`);
  return run.stdout.trim();
}

const usage = (load: string) => `
${load}
const client = new Client();
client.account.get().then(async (account) => {
  let error;
  try { await client.projects.get("no-such-project"); } catch (caught) { error = caught; }
  console.log(JSON.stringify({
    role: account.role,
    isSvcError: error instanceof SvcError,
    status: error.status,
    code: error.code,
    resources: Object.keys(client).filter((key) => key !== "baseUrl").length,
  }));
});
`;

describe("the npm package", () => {
  it("holds the ES module, the CommonJS build and their declarations, and no sources or tests", () => {
    const paths = packed.files.map((file) => file.path).sort();
    for (const expected of [
      "dist/esm/index.js",
      "dist/esm/index.d.ts",
      "dist/esm/api.generated.d.ts",
      "dist/cjs/index.js",
      "dist/cjs/index.d.ts",
      "dist/cjs/package.json",
      "package.json",
    ]) {
      expect(paths).toContain(expected);
    }
    expect(paths.filter((path) => path.startsWith("src/") || path.startsWith("test/"))).toEqual([]);
    const manifest = JSON.parse(readFileSync(join(consumer, "node_modules/@svc/sdk/package.json"), "utf8"));
    expect(manifest.dependencies ?? {}).toEqual({});
  });

  it("works through import", () => {
    const out = node(["--input-type=module", "-e", usage('import { Client, SvcError } from "@svc/sdk";')], {
      SVC_API_KEY: platform.ownerKey,
      SVC_BASE_URL: platform.baseUrl,
    });
    expect(JSON.parse(out)).toEqual({
      role: "owner",
      isSvcError: true,
      status: 404,
      code: "not_found",
      resources: documentedResources(),
    });
  });

  it("works through require", () => {
    const out = node(["-e", usage('const { Client, SvcError } = require("@svc/sdk");')], {
      SVC_API_KEY: platform.ownerKey,
      SVC_BASE_URL: platform.baseUrl,
    });
    expect(JSON.parse(out)).toMatchObject({
      role: "owner",
      isSvcError: true,
      status: 404,
      code: "not_found",
    });
  });

  it("gives TypeScript its types for both module systems", () => {
    const code = [
      'import { Client, SvcError, type DatasetRow, type UpdateDatasetRowResponse } from "@svc/sdk";',
      "export async function edit(client: Client, rows: AsyncIterable<DatasetRow>): Promise<number> {",
      '  const result: UpdateDatasetRowResponse = await client.datasets.updateRow("p", "d", "r", { expectedOutput: null });',
      "  for await (const row of rows) row.rowId.toUpperCase();",
      "  try { await client.projects.list({ limit: 1 }); } catch (error) { if (error instanceof SvcError) return error.status; }",
      "  return result.version;",
      "}",
      "",
    ].join("\n");
    writeFileSync(join(consumer, "esm.mts"), code);
    writeFileSync(join(consumer, "cjs.cts"), code);
    writeFileSync(
      join(consumer, "wrong.mts"),
      'import { Client } from "@svc/sdk";\nnew Client().datasets.updateRow("p", "d");\n',
    );
    const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
    const options = ["--noEmit", "--strict", "--module", "node16", "--moduleResolution", "node16"];
    const run = spawnSync(
      process.execPath,
      [tsc, ...options, "--target", "es2022", "--lib", "es2022,dom", "esm.mts", "cjs.cts", "wrong.mts"],
      { cwd: consumer, encoding: "utf8" },
    );
    const errors = run.stdout.split("\n").filter((line) => line.includes("error TS"));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^wrong\.mts\(2,\d+\): error TS2554/);
  });
});
