import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Client } from "../http";
import { startWithDataset, type Target, targets } from "../targets";

type ErrorBody = { code: string; error: string; requestId: string; details: { issues: { path: string }[] } };

/** A JSON text of `levels` nested arrays around one string, written out (JSON.stringify would recurse). */
const nestedArrays = (levels: number) => `${"[".repeat(levels)}"leaf"${"]".repeat(levels)}`;

describe.each(targets())("input the database cannot store (%s)", (_name, start) => {
  let target: Target;
  let api: Client;
  let base: string;

  beforeAll(async () => {
    ({ target, api, base } = await startWithDataset(start));
    expect((await api.post(`${base}/rows`, { rows: [{ id: "r1", input: "q" }] })).status).toBe(201);
  });
  afterAll(async () => {
    await target?.stop();
  });

  const expectRefused = (answer: { status: number; body: unknown }, path: RegExp) => {
    expect(answer.status).toBe(400);
    const body = answer.body as ErrorBody;
    expect(body.code).toBe("validation_failed");
    expect(body.requestId).toEqual(expect.any(String));
    expect(body.details.issues.map((issue) => issue.path)).toEqual([expect.stringMatching(path)]);
  };

  it("refuses a cell nested 20,000 levels deep with 400, and the row stays as it was", async () => {
    const answer = await api.send("PATCH", `${base}/rows/r1`, `{"output":${nestedArrays(20_000)}}`);
    expectRefused(answer, /^body\.output(\.0)+$/);
    expect((answer.body as ErrorBody).error).toContain("levels deep");
    const row = await api.get<{ output: unknown; version: number }>(`${base}/rows/r1`);
    expect(row.body).toMatchObject({ output: null, version: 1 });
  });

  it("refuses a cell holding a UTF-16 surrogate without its pair with 400", async () => {
    // Written as the JSON escape a client would send; the parsed string holds the lone surrogate.
    const answer = await api.send("PATCH", `${base}/rows/r1`, '{"expectedOutput":{"note":"\\ud83d"}}');
    expectRefused(answer, /^body\.expectedOutput\.note$/);
    expect((await api.get<{ version: number }>(base)).body.version).toBe(1);
  });

  it("refuses U+0000 in a project name, a dataset description and a search with 400", async () => {
    expectRefused(await api.post("/v1/projects", { name: "a\u0000b" }), /^body\.name$/);
    expectRefused(await api.patch(base, { description: "x\u0000" }), /^body\.description$/);
    expectRefused(await api.get(`${base}/rows?search=${encodeURIComponent("q\u0000")}`), /^query\.search$/);
    const dataset = await api.get<{ description: unknown; version: number }>(base);
    expect(dataset.body).toMatchObject({ description: null, version: 1 });
  });
});
