import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Platform, startPlatform } from "./platform";
import { errorOf, runSvc, type SvcOptions } from "./run-svc";

let platform: Platform;
let env: Record<string, string>;

beforeAll(async () => {
  platform = await startPlatform();
  env = { SVC_BASE_URL: platform.baseUrl, SVC_API_KEY: platform.apiKey };
});
afterAll(() => platform?.stop());

const svc = (args: string[], options: SvcOptions = {}) =>
  runSvc(args, { ...options, env: { ...env, ...options.env } });

/** Runs svc and parses its JSON output, failing loudly when it did not succeed. */
async function json<T = Record<string, unknown>>(args: string[], options: SvcOptions = {}): Promise<T> {
  const result = await svc([...args, "--format", "json"], options);
  expect(result.stderr, result.stderr).toBe("");
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout) as T;
}

let counter = 0;
/** A project with a dataset of `rows` rows (ids r1…rN), each test its own. */
async function makeDataset(rows = 0): Promise<{ project: string; dataset: string; at: string[] }> {
  counter += 1;
  const project = (
    await json<{ slug: string }>(["projects", "create", "--name", `Project ${counter} ${Date.now()}`])
  ).slug;
  const dataset = (
    await json<{ slug: string }>([
      "datasets",
      "create",
      "--project-slug",
      project,
      "--name",
      `Dataset ${counter}`,
    ])
  ).slug;
  const at = ["--project-slug", project, "--dataset-slug", dataset];
  if (rows > 0) {
    const body = {
      rows: Array.from({ length: rows }, (_, i) => ({ id: `r${i + 1}`, input: `question ${i + 1}` })),
    };
    await json(["datasets", "insert-rows", ...at, "--json", JSON.stringify(body)]);
  }
  return { project, dataset, at };
}

describe("the commands of the brief, against the embedded platform", () => {
  it("svc account get", async () => {
    const account = await json<{ role: string; organization: { slug: string } }>(["account", "get"]);
    expect(account.role).toBe("owner");
    expect(account.organization.slug).toBeTruthy();
  });

  it("svc projects create --name, then svc projects list", async () => {
    const created = await json<{ slug: string; name: string }>([
      "projects",
      "create",
      "--name",
      "Listed project",
    ]);
    expect(created).toMatchObject({ slug: "listed-project", name: "Listed project" });
    const page = await json<{ items: { slug: string; name: string }[] }>(["projects", "list"]);
    expect(page.items).toContainEqual(
      expect.objectContaining({ slug: "listed-project", name: "Listed project" }),
    );
  });

  it("svc api-keys list", async () => {
    const keys = await json<{ apiKeys: { maskedToken: string }[] }>(["api-keys", "list"]);
    expect(keys.apiKeys.length).toBeGreaterThan(0);
    const table = await svc(["api-keys", "list", "--format", "table"]);
    expect(table.stdout.split("\n")[0]).toMatch(/^id\s+name\s+role\s+maskedToken/);
    expect(table.stdout).not.toContain(platform.apiKey);
  });

  it("svc datasets update-row --expected-output '{\"a\":1}' edits one cell as one new version", async () => {
    const { at } = await makeDataset(1);
    const result = await json<{ version: number; versionId: string }>([
      "datasets",
      "update-row",
      ...at,
      "--row-id",
      "r1",
      "--expected-output",
      '{"a":1}',
    ]);
    expect(result.version).toBe(2);
    const row = await json<{ expectedOutput: unknown; input: unknown; version: number }>([
      "datasets",
      "get-row",
      ...at,
      "--row-id",
      "r1",
    ]);
    expect(row).toMatchObject({ expectedOutput: { a: 1 }, input: "question 1", version: 2 });
  });

  it("merges custom cells and refuses a stale If-Match with exit 1 and the API's error", async () => {
    const { at } = await makeDataset(1);
    const column = await json<{ identifier: string }>([
      "datasets",
      "create-column",
      ...at,
      "--name",
      "Score",
    ]);
    await json([
      "datasets",
      "update-row",
      ...at,
      "--row-id",
      "r1",
      "--custom",
      JSON.stringify({ [column.identifier]: 5 }),
    ]);
    const stale = await svc([
      "datasets",
      "update-row",
      ...at,
      "--row-id",
      "r1",
      "--if-match",
      "1",
      "--input",
      "x",
    ]);
    expect(stale.code).toBe(1);
    expect(stale.stdout).toBe("");
    expect(errorOf(stale)).toMatchObject({ code: "version_mismatch", status: 412 });
    expect(errorOf(stale).hint).toContain("--if-match");
    const row = await json<{ custom: Record<string, unknown> }>([
      "datasets",
      "get-row",
      ...at,
      "--row-id",
      "r1",
    ]);
    expect(row.custom).toEqual({ [column.identifier]: 5 });
  });
});

describe("traces", () => {
  const span = (traceId: string, name: string) => ({
    resource: { attributes: [{ key: "service.name", value: { stringValue: "cli-test" } }] },
    scopeSpans: [
      {
        scope: { name: "cli-test" },
        spans: [
          {
            traceId,
            spanId: traceId.slice(0, 16),
            name,
            kind: 1,
            startTimeUnixNano: "1700000000000000000",
            endTimeUnixNano: "1700000001000000000",
          },
        ],
      },
    ],
  });

  it("svc traces ingest, then svc traces list pages through them with the cursor in the body", async () => {
    const { project } = await makeDataset();
    for (const [index, name] of ["first", "second", "third"].entries()) {
      const traceId = `${index + 1}`.repeat(32);
      const ingest = await svc([
        "traces",
        "ingest",
        "--x-svc-project",
        project,
        "--resource-spans",
        JSON.stringify([span(traceId, name)]),
      ]);
      expect(ingest.code, ingest.stderr).toBe(0);
    }
    const page = await json<{ items: { traceId: string; rootSpanName: string }[] }>([
      "traces",
      "list",
      "--project-slug",
      project,
    ]);
    expect(page.items.map((trace) => trace.rootSpanName).sort()).toEqual(["first", "second", "third"]);
    const all = await svc([
      "traces",
      "list",
      "--project-slug",
      project,
      "--limit",
      "1",
      "--page-all",
      "--format",
      "jsonl",
    ]);
    expect(all.code, all.stderr).toBe(0);
    expect(all.stdout.trimEnd().split("\n")).toHaveLength(3);
  });
});

describe("API errors", () => {
  it("exits 1 with {error, code, status, requestId, hint} for a conflict, and prints nothing on stdout", async () => {
    await json(["projects", "create", "--name", "Twice"]);
    const result = await svc(["projects", "create", "--name", "Twice"]);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    const error = errorOf(result);
    expect(Object.keys(error).slice(0, 5)).toEqual(["error", "code", "status", "requestId", "hint"]);
    expect(error).toMatchObject({ code: "conflict", status: 409 });
    expect(error.requestId).toBeTruthy();
  });

  it("exits 1 with not_found for a dataset that does not exist", async () => {
    const result = await svc(["datasets", "get", "--project-slug", "nope", "--dataset-slug", "nope"]);
    expect(result.code).toBe(1);
    expect(errorOf(result)).toMatchObject({ code: "not_found", status: 404 });
  });

  it("exits 2 for a key the API rejects", async () => {
    const result = await svc(["account", "get"], { env: { SVC_API_KEY: "svc_not_a_real_key_at_all_000" } });
    expect(result.code).toBe(2);
    expect(errorOf(result)).toMatchObject({ code: "unauthenticated", status: 401 });
  });

  it("exits 2 naming SVC_API_KEY when there is no credential and no secret store, within seconds", async () => {
    const result = await svc(["account", "get"], { env: { SVC_API_KEY: undefined } });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(errorOf(result).hint).toContain("SVC_API_KEY");
    expect(result.ms).toBeLessThan(5000);
  });

  it("reports a failure as one JSON line when standard error is not a terminal, whatever the format", async () => {
    const result = await svc([
      "datasets",
      "get",
      "--project-slug",
      "nope",
      "--dataset-slug",
      "nope",
      "--format",
      "table",
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
    expect(errorOf(result).code).toBe("not_found");
  });
});

describe("formats and queries", () => {
  it("renders a list's items as table, csv, jsonl and yaml", async () => {
    const { at } = await makeDataset(3);
    const args = ["datasets", "list-rows", ...at, "--sort-direction", "asc"];
    const table = await svc([...args, "--format", "table"]);
    const lines = table.stdout.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^rowId\s+datasetId\s+input/);
    expect(lines).toHaveLength(4);
    expect(lines[1]).toMatch(/^r1\s/);

    const csv = await svc([...args, "--format", "csv"]);
    const records = csv.stdout.split("\r\n");
    expect(records[0]).toBe("rowId,datasetId,input,output,expectedOutput,metadata,custom,createdAt,version");
    expect(records[1]).toMatch(/^r1,[a-z0-9]+,question 1,,,,\{\},/);

    const jsonl = await svc([...args, "--format", "jsonl"]);
    expect(
      jsonl.stdout
        .trimEnd()
        .split("\n")
        .map((line) => JSON.parse(line).rowId),
    ).toEqual(["r1", "r2", "r3"]);

    const yaml = await svc([...args, "--format", "yaml"]);
    expect(yaml.stdout).toContain("items:\n  - rowId: r1");
  });

  it("passes the server's bytes through with raw, and the status line and headers with http", async () => {
    const raw = await svc(["account", "get", "--format", "raw"]);
    expect(raw.stdout.startsWith('{"organization"')).toBe(true);
    const http = await svc(["account", "get", "--format", "http"]);
    expect(http.stdout).toMatch(/^HTTP\/1\.1 200 OK\n/);
    expect(http.stdout).toMatch(/\nx-request-id: \S+\n/);
    expect(http.stdout).toContain('\n\n{"organization"');
  });

  it("applies --query once to the parsed response", async () => {
    const { at } = await makeDataset(2);
    const ids = await json<string[]>([
      "datasets",
      "list-rows",
      ...at,
      "--sort-direction",
      "asc",
      "--query",
      "items[].rowId",
    ]);
    expect(ids).toEqual(["r1", "r2"]);
    const raw = await svc(["account", "get", "--query", "role", "--format", "raw"]);
    expect(raw.stdout).toBe("owner\n");
  });

  it("follows nextCursor with --page-all, and stops at --max-items", async () => {
    const { at } = await makeDataset(5);
    const all = await svc([
      "datasets",
      "list-rows",
      ...at,
      "--limit",
      "2",
      "--page-all",
      "--format",
      "jsonl",
    ]);
    expect(all.code).toBe(0);
    expect(all.stdout.trimEnd().split("\n")).toHaveLength(5);
    const some = await json<unknown[]>(["datasets", "list-rows", ...at, "--limit", "2", "--max-items", "3"]);
    expect(some).toHaveLength(3);
  });

  it("prints nothing with --quiet", async () => {
    const result = await svc(["account", "get", "--quiet"]);
    expect(result).toMatchObject({ code: 0, stdout: "" });
  });
});

describe("--debug", () => {
  it("shows the request and the response on stderr with the credential redacted", async () => {
    const result = await svc(["account", "get", "--debug"]);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(`> GET ${platform.baseUrl}/v1/account`);
    expect(result.stderr).toContain("> authorization: Bearer REDACTED");
    expect(result.stderr).toContain("> user-agent: svc/0.1.0");
    expect(result.stderr).toContain("< HTTP 200");
    expect(result.stderr).not.toContain(platform.apiKey);
    expect(result.stdout).not.toContain(platform.apiKey);
  });
});

describe("network failures", () => {
  it("exits 4 quickly when nothing listens at the base address", async () => {
    const result = await svc(["account", "get"], { env: { SVC_BASE_URL: "http://127.0.0.1:9" } });
    expect(result.code).toBe(4);
    expect(result.stdout).toBe("");
    expect(errorOf(result)).toMatchObject({ code: "connection_failed" });
    expect(errorOf(result).error).toContain("connection refused");
    expect(result.ms).toBeLessThan(8000);
  });

  describe("against a server that never answers", () => {
    let slow: Server;
    let url: string;
    beforeAll(async () => {
      slow = createServer(() => {
        // Never answers: the CLI's total timeout must end the request.
      });
      await new Promise<void>((resolve) => slow.listen(0, "127.0.0.1", resolve));
      url = `http://127.0.0.1:${(slow.address() as AddressInfo).port}`;
    });
    afterAll(() => {
      slow.closeAllConnections();
      slow.close();
    });

    it("exits 4 after SVC_TIMEOUT_SECS, with a hint naming it", async () => {
      const result = await svc(["account", "get"], { env: { SVC_BASE_URL: url, SVC_TIMEOUT_SECS: "1" } });
      expect(result.code).toBe(4);
      expect(result.stdout).toBe("");
      expect(errorOf(result)).toMatchObject({ code: "timeout" });
      expect(errorOf(result).hint).toContain("SVC_TIMEOUT_SECS");
      expect(result.ms).toBeGreaterThanOrEqual(1000);
      expect(result.ms).toBeLessThan(4000);
    });
  });
});
