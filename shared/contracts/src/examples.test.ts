import { describe, expect, it } from "vitest";
import { exampleFor, type Json } from "./examples";

const components: Record<string, Json> = {
  Node: {
    type: "object",
    properties: {
      name: { type: "string" },
      children: { type: "array", items: { $ref: "#/components/schemas/Node" } },
    },
  },
  Cell: { description: "Any JSON value" },
};
const example = (schema: Json, omit?: string[]) =>
  exampleFor(schema, { components, ...(omit ? { omit: new Set(omit) } : {}) });

describe("examples made from JSON Schemas", () => {
  it("names values after their property where it knows a realistic one", () => {
    expect(
      example({
        type: "object",
        properties: {
          rowId: { type: "string", pattern: "^[A-Za-z0-9_.~-]{1,128}$" },
          input: { $ref: "#/components/schemas/Cell" },
          createdAt: { type: "string" },
          version: { type: "integer", minimum: 0 },
        },
      }),
    ).toEqual({
      rowId: "q-001",
      input: { question: "What is the capital of France?" },
      createdAt: "2025-05-01T12:00:00.000Z",
      version: 3,
    });
  });

  it("keeps to the schema's constraints when the name's value does not fit", () => {
    expect(example({ type: "string", pattern: "^[0-9a-fA-F]{16}$" })).toBe("00f067aa0ba902b7");
    expect(example({ type: "integer", minimum: 10, maximum: 20 })).toBe(10);
    expect(example({ type: "object", properties: { limit: { type: "integer", maximum: 5 } } })).toEqual({
      limit: 1,
    });
    expect(example({ type: "string", enum: ["asc", "desc"], default: "desc" })).toBe("desc");
  });

  it("stops at a recursive component instead of walking it forever", () => {
    expect(example({ $ref: "#/components/schemas/Node" })).toEqual({ name: "Golden answers", children: [] });
  });

  it("shows a nullable value, except a next cursor, and leaves out what it is told to", () => {
    const page = {
      type: "object",
      properties: {
        cursor: { type: "string" },
        description: { type: ["string", "null"] },
        nextCursor: { type: ["string", "null"] },
      },
    };
    expect(example(page, ["cursor"])).toEqual({
      description: "Curated question-answer pairs",
      nextCursor: null,
    });
  });

  it("fills a record with one entry keyed like the data it holds", () => {
    const custom = { type: "object", properties: { custom: { type: "object", additionalProperties: {} } } };
    expect(example(custom)).toEqual({ custom: { k3v0q2m9w8x7y6z5a4b3c2d1: "reviewed" } });
  });
});
