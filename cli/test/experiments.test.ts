import { startEmbedded, type Target } from "@svc/testing/platform";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectFailure, runSvc } from "./run-svc";

/* `svc experiments compare A B --fail-on-regression`: a CI step that fails when an agent regressed. */

let platform: Target;
let env: Record<string, string>;
const ids = { base: "", better: "", worse: "", project: "" };

async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${platform.baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${platform.ownerKey}`, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  expect(response.status, await response.clone().text()).toBeLessThan(300);
  return (await response.json()) as T;
}

async function experiment(name: string, outputs: (string | null)[]): Promise<string> {
  const dataset = `/v1/projects/${ids.project}/datasets/qa`;
  const { id } = await api<{ id: string }>("POST", `${dataset}/experiments`, {
    name,
    evaluators: [
      { name: "exact", kind: "exact_match" },
      { name: "similar", kind: "levenshtein" },
    ],
  });
  await api("POST", `/v1/projects/${ids.project}/experiments/${id}/results`, {
    results: outputs.map((output, i) =>
      output === null ? { rowId: `q${i}`, output, error: "timed out" } : { rowId: `q${i}`, output },
    ),
  });
  return id;
}

beforeAll(async () => {
  platform = await startEmbedded();
  env = { SVC_BASE_URL: platform.baseUrl, SVC_API_KEY: platform.ownerKey };
  ids.project = (await api<{ slug: string }>("POST", "/v1/projects", { name: "Gate" })).slug;
  await api("POST", `/v1/projects/${ids.project}/datasets`, { name: "QA" });
  await api("POST", `/v1/projects/${ids.project}/datasets/qa/rows`, {
    rows: ["0", "2", "4", "6"].map((expectedOutput, i) => ({
      id: `q${i}`,
      input: `${i}+${i}`,
      expectedOutput,
    })),
  });
  ids.base = await experiment("base", ["0", "2", "4", "7"]);
  ids.better = await experiment("better", ["0", "2", "4", "6"]);
  ids.worse = await experiment("worse", ["0", "3", null, "6"]);
});
afterAll(() => platform?.stop());

const compare = (a: string, b: string, ...flags: string[]) =>
  runSvc(["experiments", "compare", "--project-slug", ids.project, a, b, ...flags], { env });

describe("svc experiments compare --fail-on-regression", () => {
  it("exits 0 when nothing regressed, saying so on standard error", async () => {
    const result = await compare(ids.base, ids.better, "--fail-on-regression", "--format", "json");
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual([]);
    expect(result.stderr).toBe("svc: no regression (exact 0.75 → 1, similar 0.75 → 1)\n");
  });

  it("exits 6 when any row regressed, after printing those rows", async () => {
    const result = await compare(ids.base, ids.worse, "--fail-on-regression", "--format", "json");
    expect(result.code, result.stderr).toBe(6);
    expect(JSON.parse(result.stdout)).toEqual([
      { rowId: "q1", rowChanged: false, exact: { a: true, b: false }, similar: { a: 1, b: 0 } },
      {
        rowId: "q2",
        rowChanged: false,
        error: "timed out",
        exact: { a: true, b: null },
        similar: { a: 1, b: null },
      },
    ]);
    const error = JSON.parse(result.stderr) as { code: string; error: string };
    expect(error).toMatchObject({ code: "regression", error: "regression: 2 rows regressed" });
  });

  it("judges the means with --tolerance, and one score with --score", async () => {
    // A failed row has no rule score: exact 0.75 → 0.6667 (2 of 3), similar 0.75 → 0.6667.
    const within = await compare(ids.base, ids.worse, "--fail-on-regression", "--tolerance", "0.1");
    expect(within.code, within.stderr).toBe(0);
    const beyond = await compare(
      ids.base,
      ids.worse,
      "--fail-on-regression",
      "--tolerance",
      "0.05",
      "--score",
      "exact",
      "--format",
      "json",
    );
    expect(beyond.code).toBe(6);
    expect(JSON.parse(beyond.stderr).error).toBe(
      "regression: exact fell from 0.75 to 0.6667 (-0.0833, beyond the tolerance of 0.05)",
    );
    expect(JSON.parse(beyond.stdout).map((row: { rowId: string }) => row.rowId)).toEqual(["q1", "q2"]);
  });

  it("prints a table of the regressions on a terminal's format", async () => {
    const result = await compare(ids.base, ids.worse, "--fail-on-regression", "--format", "table");
    expect(result.code).toBe(6);
    expect(result.stdout).toMatch(/^rowId\s+rowChanged\s+exact\s+similar\s+error\s*$/m);
    expect(result.stdout).toMatch(/^q1\s+false\s+true → false\s+1 → 0\s*$/m);
  });

  it("refuses a score the two experiments do not share, and the same experiment named twice over", async () => {
    const error = expectFailure(
      await compare(ids.base, ids.worse, "--fail-on-regression", "--score", "nope"),
      3,
    );
    expect(error).toMatchObject({ code: "unknown_score", hint: "their shared scores: exact, similar" });
    const twice = await runSvc(
      [
        "experiments",
        "compare",
        "--project-slug",
        ids.project,
        ids.base,
        "--experiment-id",
        ids.base,
        ids.worse,
      ],
      { env },
    );
    expect(twice.code).toBe(3);
  });

  it("compares without the gate as any command does, with the flags as arguments or not", async () => {
    const result = await runSvc(
      [
        "experiments",
        "compare",
        "--project-slug",
        ids.project,
        "--experiment-id",
        ids.base,
        "--other-experiment-id",
        ids.worse,
        "--format",
        "json",
      ],
      { env },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout).summary).toMatchObject({ regressed: 2, improved: 1, same: 1 });
  });
});
