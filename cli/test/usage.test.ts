import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { expectFailure, runSvc, svcCommand } from "./run-svc";
import { runOnTerminal } from "./terminal";

const UPDATE_ROW = ["datasets", "update-row", "--project-slug", "p", "--dataset-slug", "d", "--row-id", "r"];

describe("svc without a server", () => {
  it("prints its version", async () => {
    const result = await runSvc(["--version"]);
    expect(result).toMatchObject({ code: 0, stdout: "svc 0.1.0\n", stderr: "" });
  });

  it("reads --version as the version query parameter after a command", async () => {
    const root = await runSvc(["--version", "--quiet"]);
    expect(root.stdout).toBe("svc 0.1.0\n");
    const rows = await runSvc([
      "datasets",
      "list-rows",
      "--project-slug",
      "p",
      "--dataset-slug",
      "d",
      "--version",
      "3",
      "--dry-run",
      "--format",
      "json",
    ]);
    expect(JSON.parse(rows.stdout).url).toBe("http://127.0.0.1:8080/v1/projects/p/datasets/d/rows?version=3");
  });

  it("lists resources and commands in help", async () => {
    const root = await runSvc(["--help"]);
    expect(root.code).toBe(0);
    for (const name of ["account", "projects", "datasets", "api-keys", "auth", "completion", "man"]) {
      expect(root.stdout).toContain(name);
    }
    const resource = await runSvc(["datasets", "--help"]);
    expect(resource.stdout).toMatch(/update-row\s+Edit a row's cells/);
    const command = await runSvc(["datasets", "update-row", "--help"]);
    expect(command.stdout).toContain("--expected-output <json>");
    expect(command.stdout).toContain("--format <format>");
  });

  it.each([
    [["datset", "list"], "unknown command 'datset'", "datasets"],
    [["datasets", "updat-row"], "unknown command 'updat-row'", "update-row"],
    [["datasets", "update-row", "--row", "r"], "unknown option '--row'", "--row-id"],
    [["projects", "list", "--formt", "json"], "unknown option '--formt'", "--format"],
    [["datasets", "create", "--project", "p", "--name", "x"], "unknown option '--project'", "--project-slug"],
    [["datasets", "export", "--dataset", "d"], "unknown option '--dataset'", "--dataset-slug"],
  ])("rejects %j with exit 3 and suggests the nearest name", async (args, message, suggestion) => {
    const result = await runSvc(args);
    const error = expectFailure(result, 3);
    expect(error.error).toContain(message);
    expect(error.error).toContain(`Did you mean ${suggestion}?`);
  });

  it("treats a missing command as a usage error: one JSON object naming the commands, no help page", async () => {
    const result = await runSvc(["datasets"]);
    const error = expectFailure(result, 3);
    expect(result.stderr.split("\n")).toHaveLength(2);
    expect(error).toMatchObject({
      error: "a command is required: svc datasets <command> [flags]",
      code: "missing_command",
      status: null,
    });
    expect(error.hint).toMatch(
      /^one of: copy-rows, count-rows, create, create-column, .*update-row, update-rows, watch; see `svc datasets --help`$/,
    );
    const local = expectFailure(await runSvc(["auth"]), 3);
    expect(local.hint).toBe("one of: login, status, logout; see `svc auth --help`");
    const root = expectFailure(await runSvc(["--format", "json"]), 3);
    expect(root.error).toBe("a resource is required: svc <resource> <command> [flags]");
    expect(root.hint).toContain("account, api-keys, datasets");
  });

  it("says so in one line on a terminal", () => {
    const result = runOnTerminal(["datasets"]);
    expect(result.code).toBe(3);
    expect(result.screen).toMatch(
      /^svc: a command is required: svc datasets <command> \[flags\] \(missing_command\); one of: copy-rows, count-rows, create, [^\n]*; see `svc datasets --help`\n$/,
    );
  });

  it("still prints the resource's help, on standard output, for --help", async () => {
    const result = await runSvc(["datasets", "--help"]);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe("");
    expect(result.stdout).toMatch(/^Usage: svc datasets <command> \[flags\]/);
  });

  it("rejects an unknown --format and an unknown SVC_OUTPUT before sending", async () => {
    const flag = await runSvc(["projects", "list", "--format", "xml"]);
    expectFailure(flag, 3);
    const env = await runSvc(["projects", "list", "--dry-run"], { env: { SVC_OUTPUT: "xml" } });
    expect(expectFailure(env, 3).error).toContain('SVC_OUTPUT "xml" is not a format');
  });

  it("rejects a bad JMESPath expression before any request", async () => {
    const result = await runSvc(["projects", "list", "--query", "items[?", "--dry-run"]);
    expect(expectFailure(result, 3).code).toBe("invalid_query");
  });

  it("rejects invalid JSON in a JSON flag", async () => {
    const result = await runSvc([...UPDATE_ROW, "--custom", "{nope", "--dry-run"]);
    expect(expectFailure(result, 3)).toMatchObject({ code: "invalid_json", status: null });
  });

  it("names a missing required flag, and takes the project from SVC_PROJECT_SLUG", async () => {
    const missing = await runSvc(["datasets", "get", "--dataset-slug", "d", "--dry-run"]);
    expect(expectFailure(missing, 3).error).toContain(
      "missing required flag --project-slug (or set SVC_PROJECT_SLUG)",
    );
    const fromEnv = await runSvc(
      ["datasets", "get", "--dataset-slug", "d", "--dry-run", "--format", "json"],
      {
        env: { SVC_PROJECT_SLUG: "support" },
      },
    );
    expect(fromEnv.code).toBe(0);
    expect(JSON.parse(fromEnv.stdout).url).toBe("http://127.0.0.1:8080/v1/projects/support/datasets/d");
  });

  it("writes one line for a person when standard error is a terminal-less JSON-free format", async () => {
    // Standard error is a pipe here, so the JSON object is expected whatever the format.
    const result = await runSvc(["datasets", "update-row", "--format", "table"]);
    expect(expectFailure(result, 3).code).toBe("validation_failed");
    expect(result.stderr.split("\n")).toHaveLength(2);
  });
});

describe("--dry-run", () => {
  it("prints the row edit it would send, with the credential redacted", async () => {
    const result = await runSvc(
      [...UPDATE_ROW, "--expected-output", '{"a":1}', "--dry-run", "--format", "json"],
      {
        env: { SVC_API_KEY: "svc_secret_value" },
      },
    );
    expect(result.code).toBe(0);
    expect(result.stdout).not.toContain("svc_secret_value");
    const request = JSON.parse(result.stdout);
    expect(request).toMatchObject({
      method: "PATCH",
      url: "http://127.0.0.1:8080/v1/projects/p/datasets/d/rows/r",
      body: { expectedOutput: { a: 1 } },
    });
    expect(request.headers.authorization).toBe("Bearer REDACTED");
    expect(request.headers["idempotency-key"]).toMatch(/^[0-9a-f-]{36}$/);
    expect(request.headers["user-agent"]).toBe("svc/0.1.0");
  });

  it("takes a plain word as a string, JSON as JSON, and null as null", async () => {
    const result = await runSvc([
      ...UPDATE_ROW,
      "--input",
      "hello",
      "--output",
      "42",
      "--metadata",
      "null",
      "--dry-run",
      "--format",
      "json",
    ]);
    expect(JSON.parse(result.stdout).body).toEqual({ input: "hello", output: 42, metadata: null });
  });

  it("merges --json with flags, the flags winning", async () => {
    const result = await runSvc([
      ...UPDATE_ROW,
      "--json",
      '{"input":"a","output":"b"}',
      "--output",
      '"c"',
      "--dry-run",
      "--format",
      "json",
    ]);
    expect(JSON.parse(result.stdout).body).toEqual({ input: "a", output: "c" });
  });

  it("reads --json from standard input", async () => {
    const result = await runSvc([...UPDATE_ROW, "--json", "-", "--dry-run", "--format", "json"], {
      input: '{"custom":{"k1":true}}',
    });
    expect(JSON.parse(result.stdout).body).toEqual({ custom: { k1: true } });
  });

  describe("--json @file", () => {
    const dir = mkdtempSync(join(tmpdir(), "svc-json-file-"));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it("reads the body from a file, flags still winning", async () => {
      const file = join(dir, "body.json");
      writeFileSync(file, '{"input":"from file","custom":{"k1":1}}\n');
      const result = await runSvc([
        ...UPDATE_ROW,
        "--json",
        `@${file}`,
        "--custom",
        "{}",
        "--dry-run",
        "--format",
        "json",
      ]);
      expect(result.code, result.stderr).toBe(0);
      expect(JSON.parse(result.stdout).body).toEqual({ input: "from file", custom: {} });
    });

    it("refuses a file that is not JSON with exit 3, naming the file", async () => {
      const file = join(dir, "broken.json");
      writeFileSync(file, '{"input": ');
      const error = expectFailure(await runSvc([...UPDATE_ROW, "--json", `@${file}`, "--dry-run"]), 3);
      expect(error.code).toBe("invalid_json");
      expect(error.error).toContain(`--json @${file} is not valid JSON`);
    });

    it("refuses a file that does not exist with exit 3", async () => {
      const file = join(dir, "missing.json");
      const error = expectFailure(await runSvc([...UPDATE_ROW, "--json", `@${file}`, "--dry-run"]), 3);
      expect(error).toMatchObject({ code: "invalid_json", error: `cannot read ${file}: ENOENT` });
    });
  });

  it("fails with exit 3 when the body breaks the operation's schema", async () => {
    const result = await runSvc([
      "datasets",
      "insert-rows",
      "--project-slug",
      "p",
      "--dataset-slug",
      "d",
      "--json",
      '{"rows":[]}',
      "--dry-run",
    ]);
    expect(expectFailure(result, 3).error).toContain("must hold at least 1 item");
  });

  it("checks query parameters against their constraints", async () => {
    const result = await runSvc(["projects", "list", "--limit", "500", "--dry-run"]);
    expect(expectFailure(result, 3).error).toBe("--limit must be at most 200");
  });

  it("sends the If-Match header from --if-match", async () => {
    const result = await runSvc([
      ...UPDATE_ROW,
      "--if-match",
      "3",
      "--input",
      "x",
      "--dry-run",
      "--format",
      "json",
    ]);
    expect(JSON.parse(result.stdout).headers["if-match"]).toBe("3");
  });
});

describe("output to a slow reader", () => {
  it("writes every byte before it exits, though the pipe is full for a while", async () => {
    // The reader starts reading only after svc has written far more than a pipe holds (64 KiB).
    const [command, args] = svcCommand(["datasets", "--schema"]);
    const line = [command, ...args].map((word) => `'${word.replace(/'/g, "'\\''")}'`).join(" ");
    const slow = spawnSync("sh", ["-c", `${line} | (sleep 0.5; cat)`], {
      encoding: "utf8",
      maxBuffer: 64 * 1024 * 1024,
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp" },
    });
    expect(slow.status, slow.stderr).toBe(0);
    expect(slow.stdout.length).toBeGreaterThan(3 * 65_536);
    expect(JSON.parse(slow.stdout).commands.length).toBeGreaterThan(10);
  });
});

describe("--schema", () => {
  it("describes the root, a resource and a command, even without required flags", async () => {
    const root = JSON.parse((await runSvc(["--schema"])).stdout);
    expect(root.resources.map((r: { name: string }) => r.name)).toContain("datasets");
    const resource = JSON.parse((await runSvc(["datasets", "--schema"])).stdout);
    expect(resource.commands.length).toBeGreaterThan(10);
    const result = await runSvc(["datasets", "update-row", "--schema"]);
    expect(result.code).toBe(0);
    const command = JSON.parse(result.stdout);
    expect(command.inputs).toContainEqual(
      expect.objectContaining({ flag: "--row-id", location: "path", type: "string", required: true }),
    );
    expect(command.inputs).toContainEqual(
      expect.objectContaining({ flag: "--expected-output", location: "body", type: "json", required: false }),
    );
    expect(command.output.schema.properties).toHaveProperty("version");
    const limit = JSON.parse((await runSvc(["projects", "list", "--schema"])).stdout).inputs.find(
      (input: { flag: string }) => input.flag === "--limit",
    );
    expect(limit).toMatchObject({ location: "query", type: "integer", default: 50, required: false });
  });

  it("suggests the nearest name for an unknown resource", async () => {
    const result = await runSvc(["dataset", "--schema"]);
    expect(expectFailure(result, 3).error).toContain('did you mean "datasets"');
  });
});
