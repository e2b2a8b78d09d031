import { beforeAll, describe, expect, it } from "vitest";
import { datasetForSuite, targets } from "../targets";

type ErrorBody = { code: string; error: string; requestId: string; details: { issues: { path: string }[] } };

/** A JSON text of `levels` nested arrays around one string, written out (JSON.stringify would recurse). */
const nestedArrays = (levels: number) => `${"[".repeat(levels)}"leaf"${"]".repeat(levels)}`;

describe.each(targets())("input the database cannot store (%s)", (_name, start) => {
  const suite = datasetForSuite(start);

  beforeAll(async () => {
    expect((await suite.api.post(`${suite.base}/rows`, { rows: [{ id: "r1", input: "q" }] })).status).toBe(
      201,
    );
  });

  const expectRefused = (answer: { status: number; body: unknown }, path: RegExp) => {
    expect(answer.status).toBe(400);
    const body = answer.body as ErrorBody;
    expect(body.code).toBe("validation_failed");
    expect(body.requestId).toEqual(expect.any(String));
    expect(body.details.issues.map((issue) => issue.path)).toEqual([expect.stringMatching(path)]);
  };

  it("refuses a cell nested 20,000 levels deep with 400, and the row stays as it was", async () => {
    const answer = await suite.api.send(
      "PATCH",
      `${suite.base}/rows/r1`,
      `{"output":${nestedArrays(20_000)}}`,
    );
    expectRefused(answer, /^body\.output(\.0)+$/);
    expect((answer.body as ErrorBody).error).toContain("levels deep");
    const row = await suite.api.get<{ output: unknown; version: number }>(`${suite.base}/rows/r1`);
    expect(row.body).toMatchObject({ output: null, version: 1 });
  });

  it("refuses a cell holding a UTF-16 surrogate without its pair with 400", async () => {
    // Written as the JSON escape a client would send; the parsed string holds the lone surrogate.
    const answer = await suite.api.send(
      "PATCH",
      `${suite.base}/rows/r1`,
      '{"expectedOutput":{"note":"\\ud83d"}}',
    );
    expectRefused(answer, /^body\.expectedOutput\.note$/);
    expect((await suite.api.get<{ version: number }>(suite.base)).body.version).toBe(1);
  });

  it("refuses U+0000 in a project name, a dataset description and a search with 400", async () => {
    expectRefused(await suite.api.post("/v1/projects", { name: "a\u0000b" }), /^body\.name$/);
    expectRefused(await suite.api.patch(suite.base, { description: "x\u0000" }), /^body\.description$/);
    expectRefused(
      await suite.api.get(`${suite.base}/rows?search=${encodeURIComponent("q\u0000")}`),
      /^query\.search$/,
    );
    const dataset = await suite.api.get<{ description: unknown; version: number }>(suite.base);
    expect(dataset.body).toMatchObject({ description: null, version: 1 });
  });
});
