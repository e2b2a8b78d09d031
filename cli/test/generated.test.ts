import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runSvc, SVC } from "./run-svc";

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "svc-generated-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function script(shell: string): Promise<string> {
  const result = await runSvc(["completion", shell]);
  expect(result.code).toBe(0);
  const path = join(dir, `svc.${shell}`);
  writeFileSync(path, result.stdout);
  return path;
}

/** Completions offered by bash for the words typed so far (the last one being completed). */
function bashComplete(path: string, words: string[]): string[] {
  const line = ["svc", ...words].map((word) => `'${word}'`).join(" ");
  const program = `source ${path}; COMP_WORDS=(${line}); COMP_CWORD=${words.length}; _svc_completion; printf '%s\\n' "\${COMPREPLY[@]}"`;
  return execFileSync("bash", ["--norc", "-c", program], { encoding: "utf8" }).split("\n").filter(Boolean);
}

/** Completions offered by zsh: the completion function run with compadd and _describe recorded. */
function zshComplete(path: string, words: string[]): string[] {
  const line = ["svc", ...words].map((word) => `'${word}'`).join(" ");
  const program = [
    "compdef() { :; }",
    'compadd() { while [[ $1 == -* && $1 != -- ]]; do shift; done; [[ $1 == -- ]] && shift; print -l -- "$@"; }',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: zsh parameter expansion, not a template
    '_describe() { local name=${@[-1]}; for item in "${(@P)name}"; do print -- "${item%%:*}"; done; }',
    `source ${path}`,
    `words=(${line}); CURRENT=${words.length + 1}`,
    "_svc",
  ].join("\n");
  return execFileSync("zsh", ["-f", "-c", program], { encoding: "utf8" }).split("\n").filter(Boolean);
}

/** Completions offered by fish for a command line, asked of fish itself. */
function fishComplete(path: string, commandLine: string): string[] {
  const program = `source ${path}; complete -C '${commandLine}'`;
  return execFileSync("fish", ["--no-config", "-c", program], { encoding: "utf8" })
    .split("\n")
    .filter(Boolean)
    .map((line) => line.split("\t")[0] ?? "");
}

describe("completion", () => {
  it("completes resources, commands, flags and flag values in bash", async () => {
    const path = await script("bash");
    expect(bashComplete(path, ["da"])).toEqual(["datasets"]);
    expect(bashComplete(path, ["datasets", "update-r"])).toEqual(["update-row"]);
    expect(bashComplete(path, ["datasets", "update-row", "--expected"])).toEqual(["--expected-output"]);
    expect(bashComplete(path, ["--format", "json", "datasets", "list-c"])).toEqual(["list-columns"]);
    expect(bashComplete(path, ["projects", "list", "--format", "j"])).toEqual(["json", "jsonl"]);
    expect(bashComplete(path, ["completion", "f"])).toEqual(["fish"]);
  });

  it("completes in zsh", async () => {
    const path = await script("zsh");
    expect(zshComplete(path, ["da"])).toContain("datasets");
    expect(zshComplete(path, ["datasets", ""])).toContain("update-row");
    expect(zshComplete(path, ["datasets", "update-row", "--"])).toContain("--row-id");
    expect(zshComplete(path, ["projects", "list", "--format", ""])).toEqual([
      "table",
      "json",
      "jsonl",
      "yaml",
      "csv",
      "raw",
      "http",
    ]);
  });

  it("completes in fish", async () => {
    const path = await script("fish");
    expect(fishComplete(path, "svc da")).toContain("datasets");
    expect(fishComplete(path, "svc datasets update-r")).toEqual(["update-row"]);
    expect(fishComplete(path, "svc datasets update-row --row")).toContain("--row-id");
    expect(fishComplete(path, "svc auth ")).toEqual(["login", "logout", "status"]);
  });

  it("prints scripts for powershell and elvish too", async () => {
    for (const shell of ["powershell", "elvish"]) {
      const result = await runSvc(["completion", shell]);
      expect(result.code).toBe(0);
      expect(result.stdout).toContain("update-row");
    }
  });

  it("rejects an unknown shell with exit 3", async () => {
    const result = await runSvc(["completion", "tcsh"]);
    expect(result.code).toBe(3);
  });
});

describe("svc man", () => {
  it("passes mandoc -T lint with no warnings", async () => {
    const result = await runSvc(["man"]);
    expect(result.code).toBe(0);
    const lint = spawnSync("mandoc", ["-T", "lint", "-W", "all"], { input: result.stdout, encoding: "utf8" });
    expect(lint.stdout + lint.stderr).toBe("");
    expect(lint.status).toBe(0);
    expect(result.stdout).toContain("update\\-row");
  });
});

describe("svc generate-skills", () => {
  it("writes the same bytes twice, with one reference page per resource", async () => {
    const first = join(dir, "skills-a");
    const second = join(dir, "skills-b");
    expect((await runSvc(["generate-skills", "--dir", first])).code).toBe(0);
    expect((await runSvc(["generate-skills", "--dir", second])).code).toBe(0);
    const pages = readdirSync(join(first, "references")).sort();
    const resources = JSON.parse((await runSvc(["--schema"])).stdout).resources.map(
      (resource: { name: string }) => `${resource.name}.md`,
    );
    expect(pages).toEqual([...resources].sort());
    expect(pages).toContain("datasets.md");
    for (const page of ["SKILL.md", ...pages.map((page) => `references/${page}`)]) {
      expect(readFileSync(join(second, page), "utf8")).toBe(readFileSync(join(first, page), "utf8"));
    }
    const skill = readFileSync(join(first, "SKILL.md"), "utf8");
    expect(skill).toMatch(/^---\nname: svc\ndescription: /);
    const datasets = readFileSync(join(first, "references/datasets.md"), "utf8");
    expect(datasets).toContain("## svc datasets update-row");
    expect(datasets).toContain("PATCH /v1/projects/{projectSlug}/datasets/{datasetSlug}/rows/{rowId}");
    expect(datasets).toContain("## Exit codes");
  });

  it("needs no key and no network", async () => {
    const result = await runSvc(["generate-skills", "--dir", join(dir, "skills-c")], {
      env: { SVC_BASE_URL: "http://127.0.0.1:1" },
    });
    expect(result.code).toBe(0);
  });
});

describe("startup", () => {
  /** The files Node loads for one invocation, from its module debug log. */
  const loaded = (args: string[]) =>
    spawnSync(process.execPath, [SVC, ...args], {
      env: { PATH: process.env.PATH ?? "", NODE_DEBUG: "module" },
      encoding: "utf8",
    }).stderr.match(/load "[^"]+"/g) ?? [];

  it("loads neither the HTTP client, YAML, JMESPath nor the secret store for --version or help", () => {
    for (const args of [["--version"], ["datasets", "--help"], ["datasets", "update-row", "--help"]]) {
      const files = loaded(args).join("\n");
      expect(files, args.join(" ")).not.toMatch(/vendor\/|keyring/);
    }
    expect(loaded(["--version"]).join("\n")).not.toContain("app.cjs");
  });

  it("loads JMESPath only for --query", () => {
    expect(loaded(["account", "get", "--query", "role", "--dry-run"]).join("\n")).toContain(
      "vendor/jmespath.cjs",
    );
  });

  it("answers --version and resource help without delay", () => {
    const time = (args: string[]) => {
      const times: number[] = [];
      for (let i = 0; i < 5; i++) {
        const started = process.hrtime.bigint();
        spawnSync(process.execPath, [SVC, ...args], { stdio: "ignore" });
        times.push(Number(process.hrtime.bigint() - started) / 1e6);
      }
      return Math.min(...times);
    };
    // A loose bound that survives a loaded machine; `npm run bench -w cli` gives the real numbers.
    expect(time(["--version"])).toBeLessThan(1500);
    expect(time(["datasets", "--help"])).toBeLessThan(1500);
  });
});
