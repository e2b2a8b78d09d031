import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../..", import.meta.url));
const { version } = JSON.parse(readFileSync(join(root, "cli/package.json"), "utf8")) as { version: string };

/*
 * The root build (`npm run build`, `npm start`, `npm test`) in a copy of the repository that holds
 * only the root build and the CLI's sources: what it writes there is what it builds, and the
 * checkout's own cli/dist, which other tests are running, is left alone.
 */
let copy: string;

beforeAll(() => {
  copy = mkdtempSync(join(tmpdir(), "svc-root-build-"));
  for (const path of [
    "package.json",
    "tsconfig.base.json",
    "scripts/build.mjs",
    "cli/package.json",
    "cli/openapi.json",
  ]) {
    cpSync(join(root, path), join(copy, path));
  }
  for (const dir of ["cli/src", "cli/scripts"]) cpSync(join(root, dir), join(copy, dir), { recursive: true });
  symlinkSync(join(root, "node_modules"), join(copy, "node_modules"), "dir");
});
afterAll(() => rmSync(copy, { recursive: true, force: true }));

function build(...args: string[]) {
  const run = spawnSync(process.execPath, [join(copy, "scripts/build.mjs"), "--quiet", ...args], {
    encoding: "utf8",
  });
  expect(run.stderr).toBe("");
  expect(run.status).toBe(0);
}

describe("the root build", () => {
  it("leaves svc unbuilt when a filter names only other packages", () => {
    build("@svc/embedded");
    expect(existsSync(join(copy, "cli/dist"))).toBe(false);
  });

  it("builds svc when the filter names it, ready to run", () => {
    build("cli");
    const svc = spawnSync(process.execPath, [join(copy, "cli/dist/svc.cjs"), "--version"], {
      encoding: "utf8",
    });
    expect(svc.stdout).toBe(`svc ${version}\n`);
    expect(existsSync(join(copy, "cli/dist/app.cjs"))).toBe(true);
  });
});
