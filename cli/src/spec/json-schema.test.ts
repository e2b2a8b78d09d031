import { describe, expect, it } from "vitest";
import { type JsonSchema, selfContained, validateSchema } from "./json-schema";

const components = {
  Cell: { anyOf: [{ type: "string" }, { type: "number" }, { type: "null" }, { type: "object" }] },
  Row: {
    type: "object",
    properties: {
      id: { type: "string", pattern: "^[a-z0-9]+$" },
      input: { $ref: "#/components/schemas/Cell" },
    },
    required: ["input"],
    additionalProperties: false,
  },
};

describe("validateSchema", () => {
  it("accepts a valid value and reports each problem with its path", () => {
    const schema = {
      type: "object",
      properties: { rows: { type: "array", items: { $ref: "#/components/schemas/Row" }, minItems: 1 } },
    };
    expect(validateSchema(schema, { rows: [{ input: "x" }] }, components)).toEqual([]);
    expect(validateSchema(schema, { rows: [{ id: "A!", bogus: 1 }] }, components)).toEqual([
      { path: "rows.0.input", message: "is required" },
      { path: "rows.0.id", message: "must match ^[a-z0-9]+$" },
      { path: "rows.0.bogus", message: "is not a known field" },
    ]);
    expect(validateSchema(schema, { rows: [] }, components)).toEqual([
      { path: "rows", message: "must hold at least 1 item" },
    ]);
  });

  it("checks types, bounds and enums", () => {
    expect(validateSchema({ type: "integer", minimum: 1, maximum: 200 }, 500, {})).toEqual([
      { path: "", message: "must be at most 200" },
    ]);
    expect(validateSchema({ type: "integer" }, 1.5, {})[0]?.message).toBe(
      "must be an integer, not a fractional number",
    );
    expect(validateSchema({ enum: ["asc", "desc"] }, "up", {})[0]?.message).toBe(
      'must be one of "asc", "desc"',
    );
  });

  it("reports the closest alternative of a union", () => {
    const union = {
      anyOf: [
        {
          type: "object",
          properties: { mode: { const: "all" } },
          required: ["mode"],
          additionalProperties: false,
        },
        {
          type: "object",
          properties: { mode: { const: "selected" }, rowIds: { type: "array", minItems: 1 } },
          required: ["mode", "rowIds"],
        },
      ],
    };
    expect(validateSchema(union, { mode: "selected", rowIds: [] }, {})).toEqual([
      { path: "rowIds", message: "must hold at least 1 item" },
    ]);
  });
});

describe("validateSchema with the rules of an edit", () => {
  // The row edit's body as the document states it: at least one field, and without a built-in cell,
  // a custom that names at least one.
  const edit = {
    type: "object",
    properties: { input: {}, output: {}, custom: { type: "object" } },
    additionalProperties: false,
    minProperties: 1,
    // `false`: the field must be absent (the interface types `properties` as the document's top levels use them).
    if: { properties: { input: false, output: false } } as unknown as JsonSchema,
    // biome-ignore lint/suspicious/noThenProperty: the JSON Schema keyword, in a schema never awaited
    then: { required: ["custom"], properties: { custom: { minProperties: 1 } } },
  };

  it("accepts an edit that names a cell", () => {
    expect(validateSchema(edit, { input: "x" }, {})).toEqual([]);
    expect(validateSchema(edit, { output: null, custom: {} }, {})).toEqual([]);
    expect(validateSchema(edit, { custom: { c1: 1 } }, {})).toEqual([]);
  });

  it("refuses an empty edit, and a custom that names nothing, saying when the rule applies", () => {
    expect(validateSchema(edit, {}, {})).toEqual([
      { path: "", message: "must not be empty" },
      { path: "custom", message: "is required when none of input, output is given" },
    ]);
    expect(validateSchema(edit, { custom: {} }, {})).toEqual([
      { path: "custom", message: "must not be empty when none of input, output is given" },
    ]);
  });

  it("refuses a repeated item where items must be unique", () => {
    expect(validateSchema({ type: "array", uniqueItems: true }, ["a", "b", "a"], {})).toEqual([
      { path: "", message: "must not hold the same item twice (item 2 repeats an earlier one)" },
    ]);
    expect(validateSchema({ type: "array", uniqueItems: true }, ["a", "b"], {})).toEqual([]);
  });
});

describe("selfContained", () => {
  it("moves referenced components into $defs", () => {
    const schema = selfContained({ $ref: "#/components/schemas/Row" }, components);
    expect(schema.$ref).toBe("#/$defs/Row");
    expect(Object.keys(schema.$defs ?? {})).toEqual(["Cell", "Row"]);
    expect(JSON.stringify(schema)).not.toContain("#/components/");
  });
});
