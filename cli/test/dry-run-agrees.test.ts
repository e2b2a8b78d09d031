import { startEmbedded, type Target } from "@svc/testing/platform";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ApiCommand } from "../src/spec/command-tree";
import { commandTree } from "../src/spec/document";
import { runSvc } from "./run-svc";

/*
 * `--dry-run` checks a request against the OpenAPI document; the platform checks it against the
 * operation table the document is made from. Whatever the document cannot see (a refine, a rule in a
 * service) makes the two disagree: the dry run calls valid what the server refuses, or the reverse.
 * Each request below goes to both, and each must get the verdict that API.md gives it from both.
 *
 * Left out on purpose, as no JSON Schema can say them (the document says them in words): a value
 * filter's JSON after `=`, a row named twice in one batch or one insert, `from` > `to` in a diff,
 * `cursor` with `offset`, a span that ends before it starts, and a custom column or an order that
 * does not match the dataset's columns (400 unknown_column or a 400 naming them, from the data).
 */

type Verdict = "valid" | "invalid";

interface Case {
  op: string;
  name: string;
  expect: Verdict;
  /** Path, query and header inputs by their API name, over the defaults of `inputsFor`. */
  inputs?: Record<string, string>;
  body?: unknown;
}

let platform: Target;
const fixture = {
  projectSlug: "",
  datasetSlug: "",
  /** Only built-in columns, so that a full order of them is known. */
  plainDatasetSlug: "",
  targetSlug: "",
  customColumn: "",
  apiKeyId: "",
  memberId: "",
  traceId: "4bf92f3577b34da6a3ce929d0e0e4736",
};

const ZEROS = "0".repeat(32);
const many = <T>(count: number, make: (index: number) => T): T[] =>
  Array.from({ length: count }, (_, i) => make(i));
const span = (overrides: Record<string, unknown> = {}) => ({
  resourceSpans: [
    {
      scopeSpans: [
        {
          spans: [
            {
              traceId: "5bf92f3577b34da6a3ce929d0e0e4736",
              spanId: "00f067aa0ba902b7",
              name: "root",
              startTimeUnixNano: "1700000000000000000",
              endTimeUnixNano: "1700000001000000000",
              ...overrides,
            },
          ],
        },
      ],
    },
  ],
});

/** Requests built once the fixture exists (they name its rows, columns and keys). */
function corpus(): Case[] {
  const custom = fixture.customColumn;
  const target = { datasetSlug: fixture.targetSlug };
  return [
    // The row edit: API.md, rule 3.
    { op: "updateDatasetRow", name: "an empty edit", expect: "invalid", body: {} },
    { op: "updateDatasetRow", name: "custom alone, naming no cell", expect: "invalid", body: { custom: {} } },
    { op: "updateDatasetRow", name: "an unknown field", expect: "invalid", body: { colour: "red" } },
    {
      op: "updateDatasetRow",
      name: "a cell and an unknown field",
      expect: "invalid",
      body: { output: 1, x: 2 },
    },
    { op: "updateDatasetRow", name: "an array", expect: "invalid", body: [] },
    { op: "updateDatasetRow", name: "a string", expect: "invalid", body: "output" },
    { op: "updateDatasetRow", name: "custom as an array", expect: "invalid", body: { custom: [] } },
    { op: "updateDatasetRow", name: "an empty custom key", expect: "invalid", body: { custom: { "": 1 } } },
    { op: "updateDatasetRow", name: "one cell", expect: "valid", body: { expectedOutput: { answer: 4 } } },
    { op: "updateDatasetRow", name: "a cell set to null", expect: "valid", body: { metadata: null } },
    { op: "updateDatasetRow", name: "a custom cell", expect: "valid", body: { custom: { [custom]: "ok" } } },
    {
      op: "updateDatasetRow",
      name: "empty custom beside a cell",
      expect: "valid",
      body: { output: "", custom: {} },
    },
    {
      op: "updateDatasetRow",
      name: "If-Match that is not a number",
      expect: "invalid",
      inputs: { "If-Match": "latest" },
      body: { output: 1 },
    },

    // Batch edits: 1-1,000 edits, each naming a cell.
    { op: "updateDatasetRows", name: "no edits", expect: "invalid", body: { edits: [] } },
    {
      op: "updateDatasetRows",
      name: "1,001 edits",
      expect: "invalid",
      body: { edits: many(1001, (i) => ({ rowId: `b${i + 1}`, output: i })) },
    },
    {
      op: "updateDatasetRows",
      name: "1,000 edits",
      expect: "valid",
      body: { edits: many(1000, (i) => ({ rowId: `b${i + 1}`, output: i })) },
    },
    {
      op: "updateDatasetRows",
      name: "an edit of no cell",
      expect: "invalid",
      body: { edits: [{ rowId: "r1" }] },
    },
    {
      op: "updateDatasetRows",
      name: "an edit with only ifMatch",
      expect: "invalid",
      body: { edits: [{ rowId: "r1", ifMatch: 1 }] },
    },
    {
      op: "updateDatasetRows",
      name: "an edit whose custom names nothing",
      expect: "invalid",
      body: { edits: [{ rowId: "r1", custom: {} }] },
    },
    {
      op: "updateDatasetRows",
      name: "an edit with an unknown field",
      expect: "invalid",
      body: { edits: [{ rowId: "r1", output: 1, colour: "red" }] },
    },
    {
      op: "updateDatasetRows",
      name: "a row id with a space",
      expect: "invalid",
      body: { edits: [{ rowId: "r 1", output: 1 }] },
    },
    {
      op: "updateDatasetRows",
      name: "a fractional ifMatch",
      expect: "invalid",
      body: { edits: [{ rowId: "r1", ifMatch: 1.5, output: 1 }] },
    },
    {
      op: "updateDatasetRows",
      name: "edits as an object",
      expect: "invalid",
      body: { edits: { rowId: "r1" } },
    },
    { op: "updateDatasetRows", name: "no edits field", expect: "invalid", body: {} },
    {
      op: "updateDatasetRows",
      name: "two edits, one of a custom cell",
      expect: "valid",
      body: {
        edits: [
          { rowId: "r1", output: "a" },
          { rowId: "r2", custom: { [custom]: "v" }, ifMatch: 1 },
        ],
      },
    },

    // Inserts: 1-1,000 rows, each with an input.
    { op: "insertDatasetRows", name: "no rows", expect: "invalid", body: { rows: [] } },
    {
      op: "insertDatasetRows",
      name: "1,001 rows",
      expect: "invalid",
      body: { rows: many(1001, (i) => ({ input: i })) },
    },
    {
      op: "insertDatasetRows",
      name: "a row without input",
      expect: "invalid",
      body: { rows: [{ output: 1 }] },
    },
    {
      op: "insertDatasetRows",
      name: "an empty row id",
      expect: "invalid",
      body: { rows: [{ id: "", input: 1 }] },
    },
    {
      op: "insertDatasetRows",
      name: "a row with an unknown field",
      expect: "invalid",
      body: { rows: [{ input: 1, x: 2 }] },
    },
    {
      op: "insertDatasetRows",
      name: "a row with a chosen id",
      expect: "valid",
      body: { rows: [{ id: "ok-id.1~", input: null }] },
    },

    // Datasets.
    { op: "createDataset", name: "an empty name", expect: "invalid", body: { name: "" } },
    { op: "createDataset", name: "a name of spaces", expect: "invalid", body: { name: "  \t " } },
    { op: "createDataset", name: "no name", expect: "invalid", body: {} },
    {
      op: "createDataset",
      name: "a name of 201 characters",
      expect: "invalid",
      body: { name: "n".repeat(201) },
    },
    { op: "createDataset", name: "a name as a number", expect: "invalid", body: { name: 5 } },
    {
      op: "createDataset",
      name: "an unknown field",
      expect: "invalid",
      body: { name: "Colourful", colour: "red" },
    },
    {
      op: "createDataset",
      name: "a description of 2,001 characters",
      expect: "invalid",
      body: { name: "Long description", description: "d".repeat(2001) },
    },
    {
      op: "createDataset",
      name: "a name of 200 characters",
      expect: "valid",
      body: { name: "n".repeat(200) },
    },
    {
      op: "createDataset",
      name: "a name with spaces around it",
      expect: "valid",
      body: { name: "  Padded  " },
    },
    {
      op: "createDataset",
      name: "a null description",
      expect: "valid",
      body: { name: "Described", description: null },
    },
    { op: "updateDataset", name: "an empty change", expect: "invalid", body: {} },
    { op: "updateDataset", name: "an empty name", expect: "invalid", body: { name: "" } },
    { op: "updateDataset", name: "a description", expect: "valid", body: { description: "Curated" } },

    // Columns.
    { op: "createDatasetColumn", name: "a name of spaces", expect: "invalid", body: { name: " " } },
    { op: "createDatasetColumn", name: "a name", expect: "valid", body: { name: "Reviewer" } },
    { op: "updateDatasetColumn", name: "no name", expect: "invalid", body: {} },
    { op: "updateDatasetColumn", name: "a new name", expect: "valid", body: { name: "Verdict" } },
    { op: "reorderDatasetColumns", name: "an empty order", expect: "invalid", body: { order: [] } },
    {
      op: "reorderDatasetColumns",
      name: "a column twice",
      expect: "invalid",
      inputs: { datasetSlug: fixture.plainDatasetSlug },
      body: { order: ["input", "input", "output", "expectedOutput", "metadata"] },
    },
    {
      op: "reorderDatasetColumns",
      name: "every column once",
      expect: "valid",
      inputs: { datasetSlug: fixture.plainDatasetSlug },
      body: { order: ["metadata", "expectedOutput", "output", "input"] },
    },

    // Deletes and copies.
    { op: "deleteDatasetRows", name: "no selection", expect: "invalid", body: {} },
    {
      op: "deleteDatasetRows",
      name: "selected with no ids",
      expect: "invalid",
      body: { selection: { mode: "selected", rowIds: [] } },
    },
    {
      op: "deleteDatasetRows",
      name: "an unknown mode",
      expect: "invalid",
      body: { selection: { mode: "most" } },
    },
    {
      op: "deleteDatasetRows",
      name: "all, with ids",
      expect: "invalid",
      body: { selection: { mode: "all", rowIds: ["r1"] } },
    },
    {
      op: "deleteDatasetRows",
      name: "a row that is not there",
      expect: "valid",
      body: { selection: { mode: "selected", rowIds: ["no-such-row"] } },
    },
    {
      op: "copyDatasetRows",
      name: "a value filter without =",
      expect: "invalid",
      body: { to: target, selection: { mode: "filter", where: ["input"] } },
    },
    {
      op: "copyDatasetRows",
      name: "a value filter without a value",
      expect: "invalid",
      body: { to: target, selection: { mode: "filter", where: ["input="] } },
    },
    {
      op: "copyDatasetRows",
      name: "a value filter with an empty key in its path",
      expect: "invalid",
      body: { to: target, selection: { mode: "filter", where: ["metadata..a=1"] } },
    },
    {
      op: "copyDatasetRows",
      name: "a target that is not a slug",
      expect: "invalid",
      body: { to: { datasetSlug: "Not A Slug" }, selection: { mode: "all" } },
    },
    {
      op: "copyDatasetRows",
      name: "a column map key that is not an identifier",
      expect: "invalid",
      body: { to: target, selection: { mode: "all" }, columnMap: { "bad key!": null } },
    },
    {
      op: "copyDatasetRows",
      name: "a value filter",
      expect: "valid",
      body: { to: target, selection: { mode: "filter", where: ['input="question 1"'] } },
    },

    // Traces.
    {
      op: "importDatasetRowsFromTraces",
      name: "no ids",
      expect: "invalid",
      body: { traces: { by: "ids", ids: [] } },
    },
    {
      op: "importDatasetRowsFromTraces",
      name: "an all-zero trace id",
      expect: "invalid",
      body: { traces: { by: "ids", ids: [ZEROS] } },
    },
    {
      op: "importDatasetRowsFromTraces",
      name: "a trace id that is not hex",
      expect: "invalid",
      body: { traces: { by: "ids", ids: ["xyz"] } },
    },
    {
      op: "importDatasetRowsFromTraces",
      name: "a trace by id",
      expect: "valid",
      body: { traces: { by: "ids", ids: [fixture.traceId] } },
    },
    { op: "listTraces", name: "no body at all", expect: "valid" },
    { op: "listTraces", name: "an empty body", expect: "valid", body: {} },
    { op: "listTraces", name: "a limit of 0", expect: "invalid", body: { limit: 0 } },
    { op: "listTraces", name: "a limit written as text", expect: "invalid", body: { limit: "5" } },
    { op: "listTraces", name: "an unknown sort", expect: "invalid", body: { sortBy: "name" } },
    {
      op: "listTraces",
      name: "an unknown filter field",
      expect: "invalid",
      body: { filters: [{ field: "colour", op: "eq", value: "red" }] },
    },
    {
      op: "listTraces",
      name: "an all-zero trace id filter",
      expect: "invalid",
      body: { filters: [{ field: "traceId", op: "eq", value: ZEROS }] },
    },
    {
      op: "listTraces",
      name: "a time that is not ISO-8601",
      expect: "invalid",
      body: { filters: [{ field: "startTime", op: "gt", value: "yesterday" }] },
    },
    {
      op: "listTraces",
      name: "21 filters",
      expect: "invalid",
      body: { filters: many(21, () => ({ field: "spanCount", op: "gte", value: 0 })) },
    },
    {
      op: "listTraces",
      name: "filters on time and tokens",
      expect: "valid",
      body: {
        limit: 5,
        filters: [
          { field: "startTime", op: "gt", value: "2024-05-01T12:00:00Z" },
          { field: "tokensTotal", op: "lt", value: 10 },
        ],
      },
    },
    { op: "ingestTraces", name: "no resourceSpans", expect: "invalid", body: {} },
    {
      op: "ingestTraces",
      name: "an all-zero span id",
      expect: "invalid",
      body: span({ spanId: "0".repeat(16) }),
    },
    {
      op: "ingestTraces",
      name: "a fractional time",
      expect: "invalid",
      body: span({ startTimeUnixNano: 1.5, endTimeUnixNano: 2 }),
    },
    { op: "ingestTraces", name: "a span kind out of range", expect: "invalid", body: span({ kind: 9 }) },
    { op: "ingestTraces", name: "a span", expect: "valid", body: span() },
    {
      op: "ingestTraces",
      name: "times as JSON numbers past 2^53",
      expect: "valid",
      body: span({ startTimeUnixNano: 1700000000000000000, endTimeUnixNano: 1700000002000000000 }),
    },

    // Projects, keys, members, organisations.
    { op: "createProject", name: "a name of white space", expect: "invalid", body: { name: "\t\n" } },
    { op: "createProject", name: "a name", expect: "valid", body: { name: "Another project" } },
    { op: "updateProject", name: "no name", expect: "invalid", body: {} },
    { op: "createApiKey", name: "an unknown role", expect: "invalid", body: { name: "ci", role: "king" } },
    { op: "createApiKey", name: "no name", expect: "invalid", body: { role: "viewer" } },
    { op: "createApiKey", name: "a name", expect: "valid", body: { name: "ci" } },
    { op: "updateApiKey", name: "an empty name", expect: "invalid", body: { name: "" } },
    { op: "updateApiKey", name: "a new name", expect: "valid", body: { name: "deploys" } },
    {
      op: "addMember",
      name: "an email that is not one",
      expect: "invalid",
      body: { email: "ann-at-example.com", role: "member" },
    },
    { op: "addMember", name: "no role", expect: "invalid", body: { email: "bob@example.com" } },
    { op: "addMember", name: "a member", expect: "valid", body: { email: "cat@example.com", role: "admin" } },
    { op: "updateMember", name: "no role", expect: "invalid", body: {} },
    { op: "updateMember", name: "a role", expect: "valid", body: { role: "viewer" } },
    { op: "createOrganization", name: "an empty name", expect: "invalid", body: { name: "" } },
    { op: "createOrganization", name: "a name", expect: "valid", body: { name: "Second organisation" } },

    // Path and query parameters.
    { op: "getTrace", name: "an all-zero trace id", expect: "invalid", inputs: { traceId: ZEROS } },
    { op: "listDatasetRows", name: "a limit of 0", expect: "invalid", inputs: { limit: "0" } },
    { op: "listDatasetRows", name: "a limit of 201", expect: "invalid", inputs: { limit: "201" } },
    { op: "listDatasetRows", name: "an empty search", expect: "invalid", inputs: { search: "" } },
    {
      op: "listDatasetRows",
      name: "a value filter without =",
      expect: "invalid",
      inputs: { where: "input" },
    },
    {
      op: "listDatasetRows",
      name: "a value filter",
      expect: "valid",
      inputs: { where: 'input="question 1"' },
    },
    { op: "listDatasets", name: "an unknown sort", expect: "invalid", inputs: { sortBy: "size" } },
    {
      op: "listDatasets",
      name: "a sort and a limit",
      expect: "valid",
      inputs: { sortBy: "name", limit: "200" },
    },
  ];
}

const commands = new Map<string, ApiCommand>(
  commandTree().resources.flatMap((resource) =>
    resource.commands.map((command) => [command.operationId, command]),
  ),
);

function commandOf(op: string): ApiCommand {
  const command = commands.get(op);
  if (!command) throw new Error(`no command for ${op}`);
  return command;
}

/** Every path parameter from the fixture, then the case's own inputs. */
function inputsFor(entry: Case): Record<string, string> {
  const id = entry.op.includes("Member") ? fixture.memberId : fixture.apiKeyId;
  return {
    projectSlug: fixture.projectSlug,
    datasetSlug: fixture.datasetSlug,
    rowId: "r1",
    identifier: fixture.customColumn,
    traceId: fixture.traceId,
    id,
    "X-Svc-Project": fixture.projectSlug,
    ...entry.inputs,
  };
}

/** What `svc … --dry-run` says of the request: exit 0 valid, exit 3 invalid (with why). */
async function dryRun(entry: Case): Promise<{ verdict: Verdict; why: string }> {
  const command = commandOf(entry.op);
  const given = inputsFor(entry);
  const args = [command.resource, command.name];
  for (const input of command.inputs) {
    const value = given[input.name];
    if (
      input.location !== "body" &&
      value !== undefined &&
      (input.required || entry.inputs?.[input.name] !== undefined)
    ) {
      args.push(`--${input.flag}`, value);
    }
  }
  if (entry.body !== undefined) args.push("--json", "-");
  const result = await runSvc([...args, "--dry-run", "--format", "json"], {
    input: entry.body === undefined ? "" : JSON.stringify(entry.body),
  });
  if (result.code === 0) return { verdict: "valid", why: "" };
  if (result.code === 3) return { verdict: "invalid", why: result.stderr.trim() };
  throw new Error(`svc ${args.join(" ")} --dry-run exited ${result.code}: ${result.stderr}`);
}

/** What the platform says of the same request: 2xx valid, 400 validation_failed invalid. */
async function server(entry: Case): Promise<{ verdict: Verdict | `answered ${number}`; why: string }> {
  const command = commandOf(entry.op);
  const given = inputsFor(entry);
  const url = new URL(
    platform.baseUrl +
      command.path.replace(/\{([^}]+)\}/g, (_m, name: string) => encodeURIComponent(given[name] ?? "")),
  );
  const headers: Record<string, string> = {
    authorization: `Bearer ${command.security[0] === "OperatorToken" ? platform.adminToken : platform.ownerKey}`,
  };
  for (const input of command.inputs) {
    const value = entry.inputs?.[input.name] ?? (input.location === "header" ? given[input.name] : undefined);
    if (value === undefined) continue;
    if (input.location === "query") url.searchParams.append(input.name, value);
    if (input.location === "header" && (input.required || entry.inputs?.[input.name] !== undefined)) {
      headers[input.name] = value;
    }
  }
  if (entry.body !== undefined) headers["content-type"] = "application/json";
  const response = await call(url, {
    method: command.method,
    headers,
    ...(entry.body === undefined ? {} : { body: JSON.stringify(entry.body) }),
  });
  const text = await response.text();
  if (response.status >= 200 && response.status < 300) return { verdict: "valid", why: "" };
  const code = response.status === 400 ? (JSON.parse(text) as { code?: string }).code : undefined;
  if (code === "validation_failed") return { verdict: "invalid", why: text };
  return { verdict: `answered ${response.status}`, why: text };
}

/** A request that waits out the rate limit rather than counting it as the server's verdict. */
async function call(url: URL, init: RequestInit): Promise<Response> {
  for (;;) {
    const response = await fetch(url, init);
    if (response.status !== 429) return response;
    await response.body?.cancel();
    await new Promise((resolve) =>
      setTimeout(resolve, 1000 * Number(response.headers.get("retry-after") ?? 1)),
    );
  }
}

async function api<T>(method: string, path: string, body?: unknown, token = platform.ownerKey): Promise<T> {
  const response = await call(new URL(platform.baseUrl + path), {
    method,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return JSON.parse(text) as T;
}

beforeAll(async () => {
  platform = await startEmbedded();
  const project = await api<{ slug: string }>("POST", "/v1/projects", { name: "Dry runs" });
  fixture.projectSlug = project.slug;
  const datasets = `/v1/projects/${project.slug}/datasets`;
  const makeDataset = async (name: string) => (await api<{ slug: string }>("POST", datasets, { name })).slug;
  fixture.datasetSlug = await makeDataset("Golden answers");
  fixture.plainDatasetSlug = await makeDataset("Plain");
  fixture.targetSlug = await makeDataset("Copies");
  const dataset = `${datasets}/${fixture.datasetSlug}`;
  fixture.customColumn = (
    await api<{ identifier: string }>("POST", `${dataset}/columns`, { name: "Notes" })
  ).identifier;
  await api("POST", `${dataset}/rows`, {
    rows: [
      { id: "r1", input: "question 1" },
      { id: "r2", input: "question 2" },
    ],
  });
  await api("POST", `${dataset}/rows`, { rows: many(1000, (i) => ({ id: `b${i + 1}`, input: i })) });
  fixture.apiKeyId = (await api<{ id: string }>("POST", "/v1/api-keys", { name: "to rename" })).id;
  fixture.memberId = (
    await api<{ id: string }>("POST", "/v1/members", { email: "dan@example.com", role: "member" })
  ).id;
  const trace = span({ traceId: fixture.traceId });
  const response = await call(new URL(`${platform.baseUrl}/v1/traces`), {
    method: "POST",
    headers: {
      authorization: `Bearer ${platform.ownerKey}`,
      "content-type": "application/json",
      "x-svc-project": project.slug,
    },
    body: JSON.stringify(trace),
  });
  expect(response.status, await response.text()).toBe(200);
});
afterAll(() => platform?.stop());

describe("svc --dry-run and the platform", () => {
  it("give every request of the corpus the same verdict, the one API.md gives it", {
    timeout: 180_000,
  }, async () => {
    const cases = corpus();
    // Dry runs change nothing, so they run side by side; the platform takes the requests in order.
    const local = await inBatches(cases, 8, dryRun);
    const outcomes: string[] = [];
    for (const [index, entry] of cases.entries()) {
      const remote = await server(entry);
      const mine = local[index] as { verdict: Verdict; why: string };
      if (mine.verdict !== entry.expect || remote.verdict !== entry.expect) {
        outcomes.push(
          `${entry.op}, ${entry.name}: API.md ${entry.expect}, --dry-run ${mine.verdict}, platform ${remote.verdict}` +
            `${mine.why ? `\n  dry run: ${mine.why.slice(0, 300)}` : ""}${remote.why ? `\n  platform: ${remote.why.slice(0, 300)}` : ""}`,
        );
      }
    }
    expect(outcomes).toEqual([]);
    // Not a corpus that only one side could get wrong.
    expect(cases.filter((entry) => entry.expect === "valid").length).toBeGreaterThanOrEqual(30);
    expect(cases.filter((entry) => entry.expect === "invalid").length).toBeGreaterThanOrEqual(70);
    expect(new Set(cases.map((entry) => entry.op)).size).toBeGreaterThan(20);
  });

  it("names the rule an empty row edit breaks, and sends nothing", async () => {
    const dryRunEdit = (...flags: string[]) =>
      runSvc([
        "datasets",
        "update-row",
        "--project-slug",
        "p",
        "--dataset-slug",
        "d",
        "--row-id",
        "r1",
        ...flags,
        "--dry-run",
      ]);
    const result = await dryRunEdit("--json", "{}");
    expect(result.code).toBe(3);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain("the body must not be empty");
    const customOnly = await dryRunEdit("--custom", "{}");
    expect(customOnly.code).toBe(3);
    expect(customOnly.stderr).toContain(
      "--custom must not be empty when none of input, output, expectedOutput, metadata is given",
    );
  });
});

async function inBatches<T, R>(
  items: readonly T[],
  size: number,
  run: (item: T) => Promise<R>,
): Promise<R[]> {
  const out: R[] = [];
  for (let start = 0; start < items.length; start += size) {
    out.push(...(await Promise.all(items.slice(start, start + size).map(run))));
  }
  return out;
}
