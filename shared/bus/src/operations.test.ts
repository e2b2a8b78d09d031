import { DomainError, MAX_INPUT_DEPTH, operations } from "@svc/contracts";
import { describe, expect, test } from "vitest";
import { parseOperationInput, type RawInput } from "./operations";

const nul = "must not contain the character U+0000 (\\u0000), which cannot be stored";
const datasetPath = { projectSlug: "p", datasetSlug: "d" };
const rowPath = { ...datasetPath, rowId: "r1" };

function failureOf(run: () => unknown): { message: string; issues: { path: string; message: string }[] } {
  try {
    run();
  } catch (error) {
    if (!(error instanceof DomainError) || error.code !== "validation_failed") throw error;
    const issues = (error.details?.issues ?? []) as { path: string; message: string }[];
    return { message: error.message, issues: issues.map(({ path, message }) => ({ path, message })) };
  }
  throw new Error("expected validation_failed");
}

const raw = (input: Partial<RawInput>): RawInput => ({
  params: {},
  query: {},
  body: undefined,
  headers: {},
  ...input,
});

describe("parseOperationInput refuses what cannot be stored, on every operation", () => {
  test("U+0000 in an edit's cell, naming where", () => {
    const failure = failureOf(() =>
      parseOperationInput(
        operations.updateDatasetRow,
        raw({ params: rowPath, body: { metadata: { tags: ["ok", "x\u0000"] } } }),
      ),
    );
    expect(failure.issues).toEqual([{ path: "body.metadata.tags.1", message: nul }]);
    expect(failure.message).toBe(`Request is invalid: body.metadata.tags.1: ${nul}`);
  });

  test("U+0000 in an inserted row, naming the row", () => {
    const body = { rows: [{ input: "fine" }, { input: "x", custom: { c: ["\u0000"] } }] };
    expect(
      failureOf(() => parseOperationInput(operations.insertDatasetRows, raw({ params: datasetPath, body })))
        .issues,
    ).toEqual([{ path: "body.rows.1.custom.c.0", message: nul }]);
  });

  test("U+0000 in a name, where no schema of the operation looks for it", () => {
    expect(
      failureOf(() => parseOperationInput(operations.createProject, raw({ body: { name: "a\u0000b" } })))
        .issues,
    ).toEqual([{ path: "body.name", message: nul }]);
  });

  test("U+0000 in a query parameter", () => {
    expect(
      failureOf(() =>
        parseOperationInput(
          operations.listDatasetRows,
          raw({ params: { projectSlug: "p", datasetSlug: "d" }, query: { search: "x\u0000" } }),
        ),
      ).issues,
    ).toEqual([{ path: "query.search", message: nul }]);
  });

  test("a cell nested deeper than the limit, without overflowing the stack", () => {
    let cell: unknown = "leaf";
    for (let i = 0; i < 5000; i++) cell = [cell];
    const failure = failureOf(() =>
      parseOperationInput(operations.updateDatasetRow, raw({ params: rowPath, body: { output: cell } })),
    );
    expect(failure.issues).toHaveLength(1);
    expect(failure.issues[0]?.message).toBe(`is nested more than ${MAX_INPUT_DEPTH} levels deep; flatten it`);
    expect(failure.issues[0]?.path).toMatch(/^body\.output(\.0)+$/);
  });

  test("accepts a cell nested as deep as the limit allows", () => {
    let cell: unknown = "leaf";
    for (let i = 0; i < MAX_INPUT_DEPTH - 1; i++) cell = [cell];
    const input = parseOperationInput(
      operations.updateDatasetRow,
      raw({ params: rowPath, body: { output: cell } }),
    );
    expect(input.body).toEqual({ output: cell });
  });
});

describe("parseOperationInput names where each problem is", () => {
  test("a header by the name the client sends, not the input's key", () => {
    const failure = failureOf(() =>
      parseOperationInput(
        operations.updateDatasetRow,
        raw({ params: rowPath, body: { output: "x" }, headers: { ifMatch: "abc" } }),
      ),
    );
    expect(failure.issues).toEqual([{ path: "header.If-Match", message: "must be a non-negative integer" }]);
    expect(failure.message).toBe("Request is invalid: header.If-Match: must be a non-negative integer");
  });
});
