import { describe, expect, test } from "vitest";
import { limitSchema, versionNumberSchema } from "./common";
import { diffQuerySchema } from "./datasets";
import { updateRowBodySchema, updateRowsBodySchema } from "./row-edits";
import { listRowsQuerySchema } from "./row-queries";

const messages = (result: {
  success: boolean;
  error?: { issues: { path: PropertyKey[]; message: string }[] };
}) => result.error?.issues.map((issue) => ({ path: issue.path.join("."), message: issue.message }));

describe("whole numbers given as text", () => {
  test.each([
    ["5", 5],
    ["007", 7],
    [5, 5],
    [undefined, 50],
  ])("limit %j is %j", (value, expected) => {
    expect(limitSchema.parse(value)).toBe(expected);
  });

  // z.coerce read every one of these as a number: "" and " " as 0, "0x10" as 16, "1e1" as 10, ["5"] as 5.
  test.each(["", " ", " 5", "0x10", "1e1", "1.5", "-1", "5 ", ["5"], true, null])(
    "refuses limit %j",
    (value) => {
      expect(messages(limitSchema.safeParse(value))).toEqual([
        { path: "", message: "must be an integer from 1 to 200" },
      ]);
    },
  );

  test.each([
    ["0", 0],
    ["12", 12],
    [3, 3],
  ])("version %j is %j", (value, expected) => {
    expect(versionNumberSchema.parse(value)).toBe(expected);
  });

  test.each(["", "  ", "0x2", "1e2", "2.0", "-1", "two", "2147483648", "99999999999999999999", 2147483648])(
    "refuses version %j",
    (value) => {
      expect(messages(versionNumberSchema.safeParse(value))).toEqual([
        { path: "", message: "must be an integer from 0 to 2147483647" },
      ]);
    },
  );

  test("takes the largest version PostgreSQL's integer holds", () => {
    expect(versionNumberSchema.parse("2147483647")).toBe(2147483647);
  });

  test("an empty ?version= is refused, not read as version 0", () => {
    expect(messages(listRowsQuerySchema.safeParse({ version: "" }))).toEqual([
      { path: "version", message: "must be an integer from 0 to 2147483647" },
    ]);
    expect(listRowsQuerySchema.parse({ version: "0" }).version).toBe(0);
    expect(listRowsQuerySchema.parse({}).version).toBeUndefined();
  });

  test("an empty from or to of a diff is refused, not read as version 0", () => {
    expect(messages(diffQuerySchema.safeParse({ from: "", to: "2" }))).toEqual([
      { path: "from", message: "must be an integer from 0 to 2147483647" },
    ]);
    expect(messages(diffQuerySchema.safeParse({ from: "1", to: "" }))).toEqual([
      { path: "to", message: "must be an integer from 0 to 2147483647" },
    ]);
    expect(diffQuerySchema.parse({ from: "0", to: "2" })).toMatchObject({ from: 0, to: 2 });
  });
});

describe("the batch edit body", () => {
  test("refuses an ifMatch beyond the largest version, naming it", () => {
    const edit = { rowId: "r0", ifMatch: 2147483648, output: 1 };
    expect(messages(updateRowsBodySchema.safeParse({ edits: [edit] }))).toEqual([
      { path: "edits.0.ifMatch", message: "must be an integer from 0 to 2147483647" },
    ]);
  });
});

describe("the row edit body", () => {
  test('refuses {"custom": {}} alone: it names no cell', () => {
    expect(messages(updateRowBodySchema.safeParse({ custom: {} }))).toEqual([
      {
        path: "custom",
        message:
          "the edit names no cell: custom is empty and no input, output, expectedOutput or metadata is given",
      },
    ]);
  });

  test("refuses {}", () => {
    expect(messages(updateRowBodySchema.safeParse({}))).toEqual([
      {
        path: "",
        message: "must change at least one cell: input, output, expectedOutput, metadata or custom",
      },
    ]);
  });

  test("accepts an empty custom beside a built-in cell, and a custom cell alone", () => {
    expect(updateRowBodySchema.parse({ custom: {}, output: null })).toEqual({ custom: {}, output: null });
    expect(updateRowBodySchema.parse({ custom: { k: 1 } })).toEqual({ custom: { k: 1 } });
  });
});
