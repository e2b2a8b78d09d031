import { describe, expect, it } from "vitest";
import { canonicalJson } from "./canonical-json";
import { insertRowsBodySchema } from "./schemas/row-edits";

describe("canonicalJson", () => {
  it("writes the same text for the same value, whatever order its keys came in", () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { f: 2, e: 3 }], c: "x" } })).toBe(
      canonicalJson({ a: { c: "x", d: [1, { e: 3, f: 2 }] }, b: 1 }),
    );
  });

  // Idempotency records store a hash of this text: these bytes must never change.
  it("orders keys by code unit, not by locale: upper case before lower, digits first", () => {
    expect(canonicalJson({ b: 1, a: 2, B: 3, A: 4, _: 5, "10": 6, "9": 7, é: 8 })).toBe(
      '{"10":6,"9":7,"A":4,"B":3,"_":5,"a":2,"b":1,"é":8}',
    );
  });

  it("leaves out undefined members, writes undefined inside arrays and at the top as null", () => {
    expect(canonicalJson({ a: undefined, b: null, c: [undefined, 1] })).toBe('{"b":null,"c":[null,1]}');
    expect(canonicalJson(undefined)).toBe("null");
  });

  it("writes strings, numbers and booleans as JSON.stringify does", () => {
    expect(canonicalJson({ s: 'quote " and \u2028', n: 1.5, t: true })).toBe(
      `{"n":1.5,"s":${JSON.stringify('quote " and \u2028')},"t":true}`,
    );
  });

  it("keeps a key named __proto__ as JSON.parse and the body schemas give it, so a retry is told from another body", () => {
    const sent = '{"rows":[{"input":{"__proto__":{"x":1},"constructor":2}}]}';
    const parsed = insertRowsBodySchema.parse(JSON.parse(sent));
    expect(canonicalJson(parsed)).toBe('{"rows":[{"input":{"__proto__":{"x":1},"constructor":2}}]}');
    expect(canonicalJson(JSON.parse('{"__proto__":1}'))).not.toBe(canonicalJson({}));
  });
});
