import { lstatSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer, request as httpRequest, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { startEmbedded, type Target } from "@svc/testing/platform";
import { parquetReadObjects } from "hyparquet";
import { parquetWriteBuffer } from "hyparquet-writer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectFailure, runSvc, type SvcOptions } from "./run-svc";
import { runOnTerminal } from "./terminal";

let platform: Target;
let env: Record<string, string>;

beforeAll(async () => {
  platform = await startEmbedded();
  env = { SVC_BASE_URL: platform.baseUrl, SVC_API_KEY: platform.ownerKey };
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
    expect(table.stdout).not.toContain(platform.ownerKey);
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
    const error = expectFailure(stale, 1);
    expect(error).toMatchObject({ code: "version_mismatch", status: 412 });
    expect(error.hint).toContain("--if-match");
    const row = await json<{ custom: Record<string, unknown> }>([
      "datasets",
      "get-row",
      ...at,
      "--row-id",
      "r1",
    ]);
    expect(row.custom).toEqual({ [column.identifier]: 5 });
  });

  it("svc datasets update-rows edits many rows as one version, and export --format csv|jsonl|parquet writes the file", async () => {
    const { at } = await makeDataset(3);
    const edits = [
      { rowId: "r1", expectedOutput: "one" },
      { rowId: "r3", expectedOutput: { n: 3 } },
    ];
    const batch = await json<{ version: number; rowsUpdated: number }>([
      "datasets",
      "update-rows",
      ...at,
      "--edits",
      JSON.stringify(edits),
    ]);
    expect(batch).toMatchObject({ version: 2, rowsUpdated: 2 });

    const filtered = await json<{ items: { rowId: string }[] }>([
      "datasets",
      "list-rows",
      ...at,
      "--where",
      "expectedOutput.n=3",
    ]);
    expect(filtered.items.map((row) => row.rowId)).toEqual(["r3"]);
    const lacking = await json<{ items: { rowId: string }[] }>([
      "datasets",
      "list-rows",
      ...at,
      "--missing",
      "expectedOutput",
    ]);
    expect(lacking.items.map((row) => row.rowId)).toEqual(["r2"]);

    const csv = await svc(["datasets", "export", ...at, "--format", "csv"]);
    expect(csv.stderr).toBe("");
    expect(csv.code).toBe(0);
    expect(csv.stdout).toBe(
      [
        "id,Input,Output,Expected output,Metadata",
        "r1,question 1,,one,",
        "r2,question 2,,,",
        'r3,question 3,,"{""n"":3}",',
        "",
      ].join("\r\n"),
    );
    const jsonl = await svc(["datasets", "export", ...at, "--format", "jsonl", "--version", "1"]);
    expect(jsonl.code).toBe(0);
    const rows = jsonl.stdout
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(rows.map((row) => [row.rowId, row.expectedOutput])).toEqual([
      ["r1", null],
      ["r2", null],
      ["r3", null],
    ]);
    const parquetFile = await svc(["datasets", "export", ...at, "--format", "parquet"]);
    expect(parquetFile.code).toBe(0);
    const bytes = parquetFile.stdoutBytes ?? Buffer.alloc(0);
    const parquetRows = await parquetReadObjects({ file: new Uint8Array(bytes).buffer });
    expect(parquetRows.map((row) => [row.id, row["Expected output"]])).toEqual([
      ["r1", "one"],
      ["r2", null],
      ["r3", { n: 3 }],
    ]);
    // Parquet is a file format: a command that answers JSON refuses it, saying where it belongs.
    const notAFile = await svc(["projects", "list", "--format", "parquet"]);
    expect(notAFile.code).toBe(3);
    expect(notAFile.stdout).toBe("");
    expect(notAFile.stderr).toMatch(/--format parquet is for a file the API answers with/);
    const exported = join(mkdtempSync(join(tmpdir(), "svc-import-")), "golden.csv");
    writeFileSync(exported, csv.stdout.replace('r3,question 3,,"{""n"":3}",', "r3,question 3,,three,"));
    const updated = await json<{ state: string; version: number; rowsUpdated: number }>([
      "datasets",
      "import",
      ...at,
      "--file",
      exported,
      "--mode",
      "update",
    ]);
    expect(updated).toMatchObject({ state: "succeeded", version: 3, rowsUpdated: 1 });
    const bad = join(dirname(exported), "bad.jsonl");
    writeFileSync(bad, '{"input":"fine"}\n{"input":\n');
    const failed = await svc(["datasets", "import", ...at, "--file", bad]);
    expect(failed.code).toBe(1);
    expect(failed.stdout).toBe("");
    expect(JSON.parse(failed.stderr)).toMatchObject({
      code: "validation_failed",
      error: expect.stringMatching(/^Line 2: not valid JSON/),
      details: { line: 2 },
    });
    const unnamed = await svc(["datasets", "import", ...at, "--file", join(dirname(exported), "data.txt")]);
    expect(unnamed.code).toBe(3);
    // Standard input, its format named: a pipe from another program, sent once.
    const piped = await json<{ state: string; version: number; rowsInserted: number }>(
      ["datasets", "import", ...at, "--file", "-", "--file-format", "jsonl"],
      { input: '{"id":"p1","input":"from a pipe"}\n{"id":"p2","input":"ünïcode"}\n' },
    );
    expect(piped).toMatchObject({ state: "succeeded", version: 4, rowsInserted: 2 });
    const p2 = await json<{ input: unknown }>(["datasets", "get-row", ...at, "--row-id", "p2"]);
    expect(p2.input).toBe("ünïcode");
    // A Parquet file, its name saying so.
    const parquet = join(dirname(exported), "hub.parquet");
    writeFileSync(
      parquet,
      new Uint8Array(
        parquetWriteBuffer({
          columnData: [
            { name: "id", data: ["h1", "h2"], type: "STRING" },
            { name: "input", data: ["from the hub", "again"], type: "STRING" },
          ],
        }),
      ),
    );
    const hub = await json<{ state: string; format: string; rowsInserted: number }>([
      "datasets",
      "import",
      ...at,
      "--file",
      parquet,
    ]);
    expect(hub).toMatchObject({ state: "succeeded", format: "parquet", rowsInserted: 2 });
    const nameless = await svc(["datasets", "import", ...at, "--file", "-"], { input: "id,input\n" });
    expect(nameless.code).toBe(3);
    expect(nameless.stderr).toMatch(/standard input has no name to say its format; add --file-format/);
    const wrong = await svc(["datasets", "export", ...at, "--format", "yaml"]);
    expect(wrong.code).toBe(3);
    expect(wrong.stdout).toBe("");
  });

  it("export --output writes the file whole or not at all, its format from its name", async () => {
    const { at, project } = await makeDataset(3);
    const dir = mkdtempSync(join(tmpdir(), "svc-export-"));
    const stdout = await svc(["datasets", "export", ...at, "--format", "csv"]);

    const csv = await svc(["datasets", "export", ...at, "--output", join(dir, "golden.csv")]);
    expect(csv.code).toBe(0);
    expect(csv.stdout).toBe("");
    expect(csv.stderr).toBe(`${join(dir, "golden.csv")}: version 1, ${stdout.stdout.length} bytes of csv\n`);
    expect(readFileSync(join(dir, "golden.csv"), "utf8")).toBe(stdout.stdout);
    // Standard output by name, as a pipe through /dev/stdout is written as it is, not replaced.
    for (const name of ["-", "/dev/stdout"]) {
      const piped = await svc(["datasets", "export", ...at, "--output", name, "--format", "csv"]);
      expect([piped.code, piped.stdout], name).toEqual([0, stdout.stdout]);
    }
    expect(lstatSync("/dev/stdout").isSymbolicLink()).toBe(true);
    // A link to a file is written through, and stays a link.
    writeFileSync(join(dir, "v1.csv"), "old\n");
    symlinkSync("v1.csv", join(dir, "latest.csv"));
    expect((await svc(["datasets", "export", ...at, "-q", "--output", join(dir, "latest.csv")])).code).toBe(
      0,
    );
    expect(lstatSync(join(dir, "latest.csv")).isSymbolicLink()).toBe(true);
    expect(readFileSync(join(dir, "v1.csv"), "utf8")).toBe(stdout.stdout);
    // No --format: the name says Parquet; -q says nothing and still writes the file.
    const parquet = await svc(["datasets", "export", ...at, "-q", "--output", join(dir, "golden.parquet")]);
    expect([parquet.code, parquet.stdout, parquet.stderr]).toEqual([0, "", ""]);
    const rows = await parquetReadObjects({
      file: new Uint8Array(readFileSync(join(dir, "golden.parquet"))).buffer,
    });
    expect(rows.map((row) => row.id)).toEqual(["r1", "r2", "r3"]);

    // Refused before anything is sent or written: a format the name contradicts, a missing folder.
    const clash = await svc([
      "datasets",
      "export",
      ...at,
      "--format",
      "jsonl",
      "--output",
      join(dir, "x.csv"),
    ]);
    expect(expectFailure(clash, 3).error).toBe(
      `--format jsonl, but --output ${join(dir, "x.csv")} is named as a csv file`,
    );
    const nowhere = await svc(["datasets", "export", ...at, "--output", join(dir, "missing", "x.csv")]);
    expect(expectFailure(nowhere, 3).error).toMatch(
      /^--output .*missing\/x\.csv: ENOENT: no such file or directory$/,
    );
    const folder = await svc(["datasets", "export", ...at, "--output", dir]);
    expect(expectFailure(folder, 3).error).toBe(`--output ${dir}: a folder; name the file to write in it`);

    // A refused export leaves the file of that name as it was, and nothing beside it.
    writeFileSync(join(dir, "kept.csv"), "an earlier export\n");
    const refused = await svc([
      "datasets",
      "export",
      "--project-slug",
      project,
      "--dataset-slug",
      "no-such-dataset",
      "--output",
      join(dir, "kept.csv"),
    ]);
    expect(expectFailure(refused, 1).code).toBe("not_found");
    expect(readFileSync(join(dir, "kept.csv"), "utf8")).toBe("an earlier export\n");

    // A transfer cut short (the server's connection dropped mid-body) leaves no file either.
    const cut = createServer((_request, response) => {
      response.writeHead(200, { "content-type": "text/csv", "x-request-id": "cut" });
      response.write("id,Input\r\nr1,question 1\r\n");
      setTimeout(() => response.socket?.destroy(), 50);
    });
    await new Promise<void>((resolve) => cut.listen(0, "127.0.0.1", resolve));
    try {
      const base = `http://127.0.0.1:${(cut.address() as AddressInfo).port}`;
      const dropped = await svc(["datasets", "export", ...at, "--output", join(dir, "cut.csv")], {
        env: { SVC_BASE_URL: base },
      });
      expect(dropped.code).toBe(4);
    } finally {
      cut.close();
    }
    expect(readdirSync(dir).sort()).toEqual([
      "golden.csv",
      "golden.parquet",
      "kept.csv",
      "latest.csv",
      "v1.csv",
    ]);
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

  /** Sends each trace with `svc traces ingest`, one command a trace, and expects each to succeed. */
  async function ingest(project: string, traces: [traceId: string, name: string][]) {
    for (const [traceId, name] of traces) {
      const result = await svc([
        "traces",
        "ingest",
        "--x-svc-project",
        project,
        "--resource-spans",
        JSON.stringify([span(traceId, name)]),
      ]);
      expect(result.code, result.stderr).toBe(0);
    }
  }

  /** `svc traces list` of every page, one trace a page, as JSON lines. */
  const listEveryPage = (project: string, ...flags: string[]) =>
    svc([
      "traces",
      "list",
      "--project-slug",
      project,
      "--limit",
      "1",
      "--page-all",
      ...flags,
      "--format",
      "jsonl",
    ]);

  it("svc traces ingest, then svc traces list pages through them with the cursor in the body", async () => {
    const { project } = await makeDataset();
    await ingest(
      project,
      ["first", "second", "third"].map((name, index) => [`${index + 1}`.repeat(32), name]),
    );
    const page = await json<{ items: { traceId: string; rootSpanName: string }[] }>([
      "traces",
      "list",
      "--project-slug",
      project,
    ]);
    expect(page.items.map((trace) => trace.rootSpanName).sort()).toEqual(["first", "second", "third"]);
    const all = await listEveryPage(project);
    expect(all.code, all.stderr).toBe(0);
    expect(all.stdout.trimEnd().split("\n")).toHaveLength(3);
  });

  it("sends each page of a POST list with its own Idempotency-Key", async () => {
    const { project } = await makeDataset();
    await ingest(
      project,
      [4, 5, 6].map((index) => [`${index}`.repeat(32), `trace ${index}`]),
    );
    const all = await listEveryPage(project, "--debug");
    expect(all.code, all.stderr).toBe(0);
    expect(all.stdout.trimEnd().split("\n")).toHaveLength(3);
    const requests = all.stderr.split(/^> POST /m).slice(1);
    expect(requests).toHaveLength(3);
    const keys = requests.map((request) => /^> idempotency-key: (\S+)$/m.exec(request)?.[1]);
    const cursors = requests.map((request) => /"cursor":"([^"]+)"/.exec(request)?.[1]);
    expect(cursors[0]).toBeUndefined();
    expect(new Set(cursors.slice(1)).size).toBe(2);
    expect(keys.every((key) => key !== undefined && /^[0-9a-f-]{36}$/.test(key))).toBe(true);
    expect(new Set(keys).size).toBe(3);
  });
});

describe("API errors", () => {
  it("exits 1 with {error, code, status, requestId, hint} for a conflict, and prints nothing on stdout", async () => {
    await json(["projects", "create", "--name", "Twice"]);
    const result = await svc(["projects", "create", "--name", "Twice"]);
    const error = expectFailure(result, 1);
    expect(error).toMatchObject({ code: "conflict", status: 409 });
    expect(error.requestId).toBeTruthy();
  });

  it("exits 1 with not_found for a dataset that does not exist", async () => {
    const result = await svc(["datasets", "get", "--project-slug", "nope", "--dataset-slug", "nope"]);
    expect(expectFailure(result, 1)).toMatchObject({ code: "not_found", status: 404 });
  });

  it("exits 2 for a key the API rejects", async () => {
    const result = await svc(["account", "get"], { env: { SVC_API_KEY: "svc_not_a_real_key_at_all_000" } });
    expect(expectFailure(result, 2)).toMatchObject({ code: "unauthenticated", status: 401 });
  });

  it("exits 2 with forbidden when a viewer's key tries to write", async () => {
    const viewer = await json<{ token: string; role: string }>([
      "api-keys",
      "create",
      "--name",
      "read only",
      "--role",
      "viewer",
    ]);
    expect(viewer.role).toBe("viewer");
    const asViewer = { env: { SVC_API_KEY: viewer.token } };
    expect((await svc(["projects", "list"], asViewer)).code).toBe(0);
    const result = await svc(["projects", "create", "--name", "Not allowed"], asViewer);
    const error = expectFailure(result, 2);
    expect(error).toMatchObject({ code: "forbidden", status: 403 });
    expect(error.hint).toContain("role");
    const names = (await json<{ items: { name: string }[] }>(["projects", "list"])).items.map((p) => p.name);
    expect(names).not.toContain("Not allowed");
  });

  it("exits 2 naming SVC_API_KEY when there is no credential and no secret store, within seconds", async () => {
    const result = await svc(["account", "get"], { env: { SVC_API_KEY: undefined } });
    expect(expectFailure(result, 2).hint).toContain("SVC_API_KEY");
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
    expect(expectFailure(result, 1).code).toBe("not_found");
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
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
    const { project } = await makeDataset();
    const raw = await svc(["projects", "get", "--project-slug", project, "--format", "raw"]);
    expect(raw.code, raw.stderr).toBe(0);
    const direct = await fetch(`${platform.baseUrl}/v1/projects/${project}`, {
      headers: { authorization: `Bearer ${platform.ownerKey}` },
    });
    const bytes = Buffer.from(await direct.arrayBuffer());
    expect(bytes.length).toBeGreaterThan(0);
    expect(raw.stdoutBytes?.equals(bytes), `${raw.stdout}\n${bytes}`).toBe(true);

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
    expect(result.stderr).not.toContain(platform.ownerKey);
    expect(result.stdout).not.toContain(platform.ownerKey);
  });

  it("hides secrets in the bodies it shows, in both directions", async () => {
    const created = await svc(["api-keys", "create", "--name", "debugged", "--debug", "--format", "json"]);
    expect(created.code, created.stderr).toBe(0);
    const { token } = JSON.parse(created.stdout) as { token: string };
    expect(token).toMatch(/^svc_/);
    expect(created.stderr).toContain("< HTTP 201");
    expect(created.stderr).toContain('"token":"REDACTED"');
    expect(created.stderr).toContain('"maskedToken":"');
    expect(created.stderr).not.toContain(token);
    expect(created.stderr).not.toContain(token.slice(4, 16));

    const { at } = await makeDataset();
    const secret = "cs-never-in-a-log-0123456789";
    const rows = { rows: [{ id: "r1", input: { client_secret: secret, question: "kept" } }] };
    const inserted = await svc(["datasets", "insert-rows", ...at, "--json", JSON.stringify(rows), "--debug"]);
    expect(inserted.code, inserted.stderr).toBe(0);
    expect(inserted.stderr).toContain('"client_secret":"REDACTED"');
    expect(inserted.stderr).toContain('"question":"kept"');
    expect(inserted.stderr).not.toContain(secret);
    const read = await svc(["datasets", "get-row", ...at, "--row-id", "r1", "--debug", "--format", "json"]);
    expect(JSON.parse(read.stdout).input.client_secret).toBe(secret);
    expect(read.stderr).toContain('"client_secret":"REDACTED"');
    expect(read.stderr).not.toContain(secret);
  });
});

describe("network failures", () => {
  it("exits 4 quickly when nothing listens at the base address", async () => {
    const result = await svc(["account", "get"], { env: { SVC_BASE_URL: "http://127.0.0.1:9" } });
    const error = expectFailure(result, 4);
    expect(error).toMatchObject({ code: "connection_failed" });
    expect(error.error).toContain("connection refused");
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
      const error = expectFailure(result, 4);
      expect(error).toMatchObject({ code: "timeout" });
      expect(error.hint).toContain("SVC_TIMEOUT_SECS");
      expect(result.ms).toBeGreaterThanOrEqual(1000);
      expect(result.ms).toBeLessThan(4000);
    });
  });
});

describe("formats on a terminal", () => {
  /** What a line redrawn in place (carriage return, erase the line) last showed. */
  const lastDrawn = (screen: string) => screen.split("\r\u001b[2K").at(-1);
  const terminalEnv = () => ({ SVC_BASE_URL: platform.baseUrl, SVC_API_KEY: platform.ownerKey });

  it("prints a table when standard output is a terminal, and JSON when it is not", async () => {
    const { project } = await makeDataset();
    const args = ["projects", "get", "--project-slug", project];
    const tty = runOnTerminal(args, { env: terminalEnv(), onTerminal: { stdout: true, stderr: false } });
    expect(tty.code, tty.stderr).toBe(0);
    const [header, row, ...rest] = tty.screen.trimEnd().split("\n");
    // The header in bold: colour on a terminal.
    expect(header?.startsWith("\u001b[1mid ")).toBe(true);
    expect(header?.endsWith("\u001b[0m")).toBe(true);
    expect(header).toMatch(/\bslug\s+name\b/);
    expect(row).toMatch(new RegExp(`^\\S+\\s+(\\S+\\s+)*${project}\\s+Project `));
    expect(rest).toEqual([]);
    const piped = await svc(args);
    expect(JSON.parse(piped.stdout)).toMatchObject({ slug: project });
  });

  it("fits a terminal that reports no width to COLUMNS, else to 100 columns, not to none", async () => {
    const { project } = await makeDataset();
    await makeDataset();
    const { id } = await json<{ id: string }>(["projects", "get", "--project-slug", project]);
    const widths = (screen: string) =>
      screen
        .trimEnd()
        .split("\n")
        .map((line) => line.length);
    const show = (args: string[], env: Record<string, string> = {}) => {
      const shown = runOnTerminal(args, {
        env: { ...terminalEnv(), NO_COLOR: "1", ...env },
        onTerminal: { stdout: true, stderr: false },
        columns: 0,
      });
      expect(shown.code, shown.stderr).toBe(0);
      return shown.screen;
    };
    // One project is wider than 100 columns: one field a line, each value whole.
    const one = show(["projects", "get", "--project-slug", project]);
    expect(one).toMatch(new RegExp(`^id +${id}$`, "m"));
    expect(one).toMatch(new RegExp(`^slug +${project}$`, "m"));
    expect(Math.max(...widths(one))).toBeLessThanOrEqual(100);
    // The list fits 100 columns, or COLUMNS when set.
    const list = show(["projects", "list"]);
    expect(Math.max(...widths(list))).toBeLessThanOrEqual(100);
    expect(Math.max(...widths(list))).toBeGreaterThan(60);
    const narrow = show(["projects", "list"], { COLUMNS: "60" });
    expect(Math.max(...widths(narrow))).toBeLessThanOrEqual(60);
  });

  it("refuses to write a Parquet export's bytes to a terminal, saying to send them to a file", async () => {
    const { at } = await makeDataset(1);
    const tty = runOnTerminal(["datasets", "export", ...at, "--format", "parquet"], {
      env: terminalEnv(),
      onTerminal: { stdout: true, stderr: false },
    });
    expect(tty.code).toBe(3);
    expect(tty.screen).not.toContain("PAR1");
    expect(tty.stderr).toMatch(/a Parquet file is binary and standard output is a terminal/);
    expect(tty.stderr).toMatch(/--output datasets\.parquet/);
  });

  it("shows an import's progress on a terminal and ends it with what the import did; none when piped or -q", async () => {
    const { at } = await makeDataset(2);
    const file = join(mkdtempSync(join(tmpdir(), "svc-progress-")), "golden.csv");
    const exported = await svc(["datasets", "export", ...at, "--format", "csv", "--output", file]);
    expect(exported.code, exported.stderr).toBe(0);
    const onTerminal = { stdout: false, stderr: true };
    const same = runOnTerminal(["datasets", "import", ...at, "--file", file, "--mode", "update"], {
      env: terminalEnv(),
      onTerminal,
    });
    expect(same.code, same.screen).toBe(0);
    expect(same.screen).toMatch(/uploading golden\.csv \[#+\] 100%/);
    expect(lastDrawn(same.screen)).toBe(
      "golden.csv: 2 rows read, nothing changed: the dataset stays at version 1\n",
    );
    expect(JSON.parse(same.stdout)).toMatchObject({ state: "succeeded", versionId: null, version: 1 });

    writeFileSync(file, readFileSync(file, "utf8").replace("question 2", "question two"));
    const changed = runOnTerminal(["datasets", "import", ...at, "--file", file, "--mode", "update"], {
      env: terminalEnv(),
      onTerminal,
    });
    expect(lastDrawn(changed.screen)).toBe("golden.csv: updated 1 of 2 rows as version 2\n");
    const added = join(dirname(file), "added.jsonl");
    writeFileSync(added, '{"input":"three"}\n');
    const inserted = runOnTerminal(["datasets", "import", ...at, "--file", added], {
      env: terminalEnv(),
      onTerminal,
    });
    expect(lastDrawn(inserted.screen)).toBe("added.jsonl: imported 1 row as version 3\n");

    const quiet = runOnTerminal(["datasets", "import", ...at, "--file", added, "-q"], {
      env: terminalEnv(),
      onTerminal,
    });
    expect([quiet.code, quiet.screen, quiet.stdout]).toEqual([0, "", ""]);
    const piped = await svc(["datasets", "import", ...at, "--file", added]);
    expect([piped.code, piped.stderr]).toEqual([0, ""]);
    expect(JSON.parse(piped.stdout)).toMatchObject({ state: "succeeded", version: 5, rowsInserted: 1 });
  });

  it("drops colour on a terminal when NO_COLOR is set", () => {
    const result = runOnTerminal(["account", "get"], {
      env: { ...terminalEnv(), NO_COLOR: "1" },
      onTerminal: { stdout: true, stderr: false },
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.screen).toMatch(/^organization\s+role/);
    expect(result.screen).not.toContain("\u001b");
  });

  it("uses SVC_OUTPUT, on a terminal or not, and lets --format win over it", async () => {
    const yamlEnv = { ...terminalEnv(), SVC_OUTPUT: "yaml" };
    const tty = runOnTerminal(["account", "get"], {
      env: yamlEnv,
      onTerminal: { stdout: true, stderr: false },
    });
    expect(tty.screen).toMatch(/^organization:\n {2}id: /);
    const piped = await svc(["account", "get"], { env: { SVC_OUTPUT: "yaml" } });
    expect(piped.stdout).toMatch(/^organization:\n {2}id: \S+\n/);
    expect(piped.stdout).toMatch(/^role: owner$/m);
    const flag = await svc(["account", "get", "--format", "json"], { env: { SVC_OUTPUT: "yaml" } });
    expect(JSON.parse(flag.stdout).role).toBe("owner");
    const ttyFlag = runOnTerminal(["account", "get", "--format", "jsonl"], {
      env: yamlEnv,
      onTerminal: { stdout: true, stderr: false },
    });
    expect(JSON.parse(ttyFlag.screen).role).toBe("owner");
  });

  it("reports a failure as one line a person can act on when standard error is a terminal", () => {
    const result = runOnTerminal(["datasets", "get", "--project-slug", "nope", "--dataset-slug", "nope"], {
      env: terminalEnv(),
      onTerminal: { stdout: false, stderr: true },
    });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.screen).toMatch(
      /^svc: [^\n]*not found[^\n]* \(HTTP 404, not_found, request \S+\); check the slugs with `svc projects list` and `svc datasets list`\n$/i,
    );
  });

  it("reports a failure as the JSON object on a terminal too when the format is json", () => {
    const result = runOnTerminal(
      ["datasets", "get", "--project-slug", "nope", "--dataset-slug", "nope", "--format", "json"],
      { env: terminalEnv(), onTerminal: { stdout: false, stderr: true } },
    );
    expect(result.code).toBe(1);
    expect(JSON.parse(result.screen)).toMatchObject({ code: "not_found", status: 404 });
  });
});

describe("the Idempotency-Key", () => {
  /**
   * A front of the platform that loses the answer to the first attempt of each mutation: the request
   * reaches the platform (the edit is applied), but the CLI is told 502, as when a load balancer drops
   * a connection. It records the Idempotency-Key of every request.
   */
  let front: Server;
  let frontUrl: string;
  const seen: { method: string; key: string | undefined; status: number }[] = [];
  beforeAll(async () => {
    const answered = new Set<string>();
    front = createServer((incoming: IncomingMessage, outgoing) => {
      const key = incoming.headers["idempotency-key"] as string | undefined;
      const upstream = httpRequest(
        `${platform.baseUrl}${incoming.url ?? "/"}`,
        { method: incoming.method, headers: incoming.headers },
        (answer) => {
          const lose = key !== undefined && !answered.has(key);
          if (key !== undefined) answered.add(key);
          const status = lose ? 502 : (answer.statusCode ?? 502);
          seen.push({ method: incoming.method ?? "", key, status });
          if (lose) {
            answer.resume();
            outgoing.writeHead(502, { "content-type": "text/plain" }).end("bad gateway");
            return;
          }
          outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(outgoing);
        },
      );
      incoming.pipe(upstream);
    });
    await new Promise<void>((resolve) => front.listen(0, "127.0.0.1", resolve));
    frontUrl = `http://127.0.0.1:${(front.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    front?.closeAllConnections();
    front?.close();
  });

  it("is made once per invocation: a retried edit carries it again and is applied once", async () => {
    const { at } = await makeDataset(1);
    seen.length = 0;
    const edit = (value: string) =>
      svc(
        ["datasets", "update-row", ...at, "--row-id", "r1", "--expected-output", value, "--format", "json"],
        {
          env: { SVC_BASE_URL: frontUrl },
        },
      );
    const first = await edit('{"a":1}');
    expect(first.code, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout).version).toBe(2);
    const second = await edit('{"a":2}');
    expect(second.code, second.stderr).toBe(0);
    expect(JSON.parse(second.stdout).version).toBe(3);

    const patches = seen.filter((request) => request.method === "PATCH");
    expect(patches.map((request) => request.status)).toEqual([502, 200, 502, 200]);
    const [a, b, c, d] = patches.map((request) => request.key);
    expect(a).toMatch(/^[0-9a-f-]{36}$/);
    expect(b).toBe(a);
    expect(c).toMatch(/^[0-9a-f-]{36}$/);
    expect(d).toBe(c);
    expect(c).not.toBe(a);
    // Each edit reached the platform twice and made one version.
    const versions = await json<{ items: { version: number }[] }>(["datasets", "list-versions", ...at]);
    expect(versions.items.map((version) => version.version).sort()).toEqual([1, 2, 3]);
  });
});
