import { describe, expect, it } from "vitest";
import { datasetSnapshot, expectError, issuePaths } from "../../factories";
import { datasetForSuite, targets } from "../../targets";

/**
 * Numbers a request can write that the storage cannot hold: an integer past PostgreSQL's `integer`
 * (versions) or `bigint` (nanoseconds), and a JSON number past a double's range. Each is the client's
 * mistake, refused at the edge as `400 validation_failed` naming where it is: never a 500 from the
 * database, never a number quietly stored as null.
 */
describe.each(targets())("numbers out of range (%s)", (_name, start) => {
  const suite = datasetForSuite(start, { newOrganization: true, rows: 2, columns: 1 });

  const snapshot = () => datasetSnapshot(suite.api, suite.base);
  const TOO_BIG = "2147483648";

  it.each([
    ["GET", `/versions/${TOO_BIG}`, "path.version"],
    ["POST", `/versions/${TOO_BIG}/restore`, "path.version"],
    ["GET", `/rows?version=${TOO_BIG}`, "query.version"],
    ["GET", `/rows/r0?version=${TOO_BIG}`, "query.version"],
    ["GET", `/diff?from=0&to=${TOO_BIG}`, "query.to"],
    ["GET", `/diff?from=${TOO_BIG}&to=${TOO_BIG}`, "query.from"],
    ["GET", `/export?version=${TOO_BIG}`, "query.version"],
    ["GET", "/versions/99999999999999999999", "path.version"],
  ])("refuses %s …%s with 400 naming %s", async (method, path, where) => {
    const before = await snapshot();
    const error = await expectError(suite.api.send(method, `${suite.base}${path}`), 400, "validation_failed");
    expect(issuePaths(error)).toContain(where);
    expect(error.error).toContain(where);
    expect(error.error).toContain("2147483647");
    expect(await snapshot()).toEqual(before);
  });

  it("refuses If-Match beyond the largest version, in a header and in a batch edit, changing nothing", async () => {
    const before = await snapshot();
    const header = await expectError(
      suite.api.patch(`${suite.base}/rows/r0`, { output: "x" }, { "if-match": TOO_BIG }),
      400,
      "validation_failed",
    );
    expect(issuePaths(header)).toEqual(["header.If-Match"]);
    const batch = await expectError(
      suite.api.patch(`${suite.base}/rows`, { edits: [{ rowId: "r0", ifMatch: 2147483648, output: "x" }] }),
      400,
      "validation_failed",
    );
    expect(issuePaths(batch)).toEqual(["body.edits.0.ifMatch"]);
    expect(await snapshot()).toEqual(before);
  });

  it.each([
    ["a span count past an integer", { field: "spanCount", op: "gt", value: 2147483648 }],
    ["an error count past an integer", { field: "errorCount", op: "eq", value: 2147483648 }],
    ["a duration past 64 bits", { field: "durationNs", op: "gt", value: "9999999999999999999" }],
    ["a time past 64-bit nanoseconds", { field: "startTime", op: "gt", value: "9999-12-31T23:59:59Z" }],
    ["a time before 64-bit nanoseconds", { field: "endTime", op: "lt", value: "0001-01-01T00:00:00Z" }],
  ])("refuses a trace filter on %s with 400 naming it", async (_label, filter) => {
    const listed = await expectError(
      suite.api.post(`/v1/projects/${suite.project}/traces/list`, { filters: [filter] }),
      400,
      "validation_failed",
    );
    expect(issuePaths(listed)).toEqual(["body.filters.0.value"]);
    const before = await snapshot();
    const imported = await expectError(
      suite.api.post(`${suite.base}/rows/import/traces`, { traces: { by: "filters", filters: [filter] } }),
      400,
      "validation_failed",
    );
    expect(issuePaths(imported)).toEqual(["body.traces.filters.0.value"]);
    expect(await snapshot()).toEqual(before);
  });

  it.each([
    ["a row edit", "PATCH", "/rows/r0", '{"output":1e309}', "body.output"],
    ["a row edit's custom cell", "PATCH", "/rows/r0", '{"custom":{"$c":[1,-1e999]}}', "body.custom.$c.1"],
    [
      "a batch edit",
      "PATCH",
      "/rows",
      '{"edits":[{"rowId":"r1","metadata":{"n":1e400}}]}',
      "body.edits.0.metadata.n",
    ],
    [
      "an insert",
      "POST",
      "/rows",
      '{"rows":[{"id":"n","input":{"a":{"b":1E400}}}]}',
      "body.rows.0.input.a.b",
    ],
  ])(
    "refuses a number beyond a double's range in %s with 400 naming where, storing nothing",
    async (_label, method, path, template, where) => {
      const column = (
        await suite.api.get<{ columns: { identifier: string; source: { kind: string } }[] }>(
          `${suite.base}/columns`,
        )
      ).body.columns.find((c) => c.source.kind === "custom")?.identifier as string;
      const before = await snapshot();
      const error = await expectError(
        suite.api.send(method, `${suite.base}${path}`, template.replaceAll("$c", column)),
        400,
        "validation_failed",
      );
      expect(issuePaths(error)).toEqual([where.replaceAll("$c", column)]);
      expect(error.details?.issues?.[0]).toMatchObject({ code: "number_out_of_range" });
      expect(error.error).toMatch(/beyond the range of a double/);
      expect(await snapshot()).toEqual(before);
    },
  );

  it("stores the largest and smallest numbers a double holds, exactly", async () => {
    const edited = await suite.api.send(
      "PATCH",
      `${suite.base}/rows/r1`,
      '{"output":[1.7976931348623157e308,-1.7976931348623157e308,5e-324,1e308]}',
    );
    expect(edited.status).toBe(200);
    const row = await suite.api.get<{ output: unknown }>(`${suite.base}/rows/r1`);
    expect(row.body.output).toEqual([Number.MAX_VALUE, -Number.MAX_VALUE, Number.MIN_VALUE, 1e308]);
  });
});
