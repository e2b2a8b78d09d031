import { describe, expect, it } from "vitest";
import { z } from "zod";
import { validationError } from "../errors";
import { cellSchema } from "./datasets";
import { recordOf } from "./proto-keys";
import { copyRowsBodySchema, newRowSchema, updateRowBodySchema } from "./row-edits";

/** What a client's JSON becomes on the server: `__proto__` an own key, as JSON.parse makes it. */
const parsed = (json: string): unknown => JSON.parse(json);

describe("keys named __proto__", () => {
  it("stay in a cell, at every depth, as own keys of ordinary objects", () => {
    const cell = cellSchema.parse(
      parsed('{"__proto__":{"polluted":true},"a":[{"__proto__":1,"b":{"__proto__":null}}],"constructor":2}'),
    ) as Record<string, unknown>;
    expect(JSON.stringify(cell)).toBe(
      '{"__proto__":{"polluted":true},"a":[{"__proto__":1,"b":{"__proto__":null}}],"constructor":2}',
    );
    expect(Object.keys(cell)).toEqual(["__proto__", "a", "constructor"]);
    expect(Object.getPrototypeOf(cell)).toBe(Object.prototype);
    expect((cell as { polluted?: unknown }).polluted).toBeUndefined();
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
  });

  it("reach the row edit's custom cells, so that the column check can refuse them", () => {
    const body = updateRowBodySchema.parse(parsed('{"custom":{"__proto__":1}}'));
    expect(Object.keys(body.custom ?? {})).toEqual(["__proto__"]);
    expect(Object.getOwnPropertyDescriptor(body.custom, "__proto__")?.value).toBe(1);
  });

  it("reach a copy's column map", () => {
    const body = copyRowsBodySchema.parse(
      parsed('{"to":{"datasetSlug":"d"},"selection":{"mode":"all"},"columnMap":{"__proto__":null}}'),
    );
    expect(Object.keys(body.columnMap ?? {})).toEqual(["__proto__"]);
  });

  it("are checked like any other key and value, and named as sent in the issues", () => {
    const issuesOf = (schema: z.ZodType, json: string) =>
      validationError(schema.safeParse(parsed(json)).error?.issues ?? []).details?.issues;
    const lowercase = recordOf(z.string().regex(/^[a-z]+$/, "must be lowercase letters"), z.number());
    expect(issuesOf(lowercase, '{"__proto__":1,"ok":1}')).toEqual([
      expect.objectContaining({ path: "__proto__", code: "invalid_key" }),
    ]);
    expect(issuesOf(recordOf(z.string(), z.number()), '{"ok":1,"__proto__":"one"}')).toEqual([
      expect.objectContaining({ path: "__proto__", code: "invalid_type" }),
    ]);
  });

  it("leave every other key as it is, U+0000 before __proto__ included", () => {
    const value = { "\u0000__proto__": 1, "\u0000\u0000__proto__": 2, __proto_: 3, "__proto__ ": 4 };
    expect(cellSchema.parse(value)).toEqual(value);
    expect(recordOf(z.string(), z.number()).parse(value)).toEqual(value);
  });

  it("leave a cell without them unchanged, and required where it was", () => {
    const cell = { a: [1, "x", null, { b: true }] };
    expect(cellSchema.parse(cell)).toEqual(cell);
    expect(newRowSchema.safeParse({ id: "r1" }).success).toBe(false);
    expect(newRowSchema.safeParse({ id: "r1", input: null }).success).toBe(true);
  });
});
