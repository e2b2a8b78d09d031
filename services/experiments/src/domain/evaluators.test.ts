import type { Cell, Evaluator } from "@svc/contracts";
import { evaluatorSchema } from "@svc/contracts";
import { describe, expect, test } from "vitest";
import { compileEvaluators, similarity } from "./evaluators";

const scoreOf = (definition: Record<string, unknown>, output: Cell, expected?: Cell) => {
  const [rule] = compileEvaluators([evaluatorSchema.parse({ name: "s", ...definition }) as Evaluator]);
  return rule?.score(output, expected);
};

describe("rule evaluators", () => {
  test("exact_match compares text, with case and white space as asked", () => {
    expect(scoreOf({ kind: "exact_match" }, "Paris", "Paris")).toBe(true);
    expect(scoreOf({ kind: "exact_match" }, "paris", "Paris")).toBe(false);
    expect(scoreOf({ kind: "exact_match", caseSensitive: false, trim: true }, " paris\n", "Paris")).toBe(
      true,
    );
    expect(scoreOf({ kind: "exact_match" }, { b: 1, a: 2 }, { a: 2, b: 1 })).toBe(true);
    expect(scoreOf({ kind: "exact_match" }, "4", 4)).toBe(true);
  });

  test("gives no score without an expected value, unless the rule names one", () => {
    expect(scoreOf({ kind: "exact_match" }, "x", null)).toBeUndefined();
    expect(scoreOf({ kind: "exact_match" }, "x", undefined)).toBeUndefined();
    expect(scoreOf({ kind: "exact_match", expected: "x" }, "x", null)).toBe(true);
  });

  test("json_equal reads JSON text and ignores key order", () => {
    expect(scoreOf({ kind: "json_equal" }, '{"a": 1, "b": [1, 2]}', { b: [1, 2], a: 1 })).toBe(true);
    expect(scoreOf({ kind: "json_equal" }, '{"a": 1}', { a: 2 })).toBe(false);
    expect(scoreOf({ kind: "json_equal" }, "not json {", "not json {")).toBe(true);
  });

  test("contains looks for the expected text or the rule's own", () => {
    expect(scoreOf({ kind: "contains" }, "The answer is Paris.", "Paris")).toBe(true);
    expect(scoreOf({ kind: "contains", value: "PARIS", caseSensitive: false }, "in paris", null)).toBe(true);
    expect(scoreOf({ kind: "contains", value: "Lyon" }, "in Paris", null)).toBe(false);
  });

  test("regex matches in linear time, even on a pattern that backtracks without end elsewhere", () => {
    expect(scoreOf({ kind: "regex", pattern: "^\\d{4}-\\d{2}$" }, "2026-11", null)).toBe(true);
    expect(scoreOf({ kind: "regex", pattern: "^yes$", flags: "i" }, "YES", null)).toBe(true);
    const started = performance.now();
    expect(scoreOf({ kind: "regex", pattern: "^(a+)+$" }, `${"a".repeat(5000)}b`, null)).toBe(false);
    expect(performance.now() - started).toBeLessThan(1000);
  });

  test("json_schema validates the output, read as JSON when it is JSON text", () => {
    const schema = { type: "object", required: ["answer"], properties: { answer: { type: "string" } } };
    expect(scoreOf({ kind: "json_schema", schema }, '{"answer": "4"}', null)).toBe(true);
    expect(scoreOf({ kind: "json_schema", schema }, { answer: 4 }, null)).toBe(false);
  });

  test("numeric_close allows an absolute or a relative difference", () => {
    expect(scoreOf({ kind: "numeric_close", tolerance: 0.5 }, "4.4", 4)).toBe(true);
    expect(scoreOf({ kind: "numeric_close", tolerance: 0.5 }, 4.6, "4")).toBe(false);
    expect(scoreOf({ kind: "numeric_close", relativeTolerance: 0.1 }, 105, 100)).toBe(true);
    expect(scoreOf({ kind: "numeric_close" }, "four", 4)).toBe(false);
  });

  test("levenshtein gives a similarity from 0 to 1", () => {
    expect(scoreOf({ kind: "levenshtein" }, "kitten", "sitting")).toBeCloseTo(1 - 3 / 7, 5);
    expect(scoreOf({ kind: "levenshtein", caseSensitive: false }, "ABC", "abc")).toBe(1);
    expect(similarity("", "")).toBe(1);
    expect(similarity("abc", "xyz")).toBe(0);
  });

  test("refuses what cannot be compiled, naming the evaluator and the field", () => {
    expect(() => scoreOf({ kind: "regex", pattern: "(?<=a)b" }, "", null)).toThrow(
      /body\.evaluators\.0\.pattern: evaluator "s": .*invalid/,
    );
    expect(() => scoreOf({ kind: "json_schema", schema: { type: 12 } }, "", null)).toThrow(
      /body\.evaluators\.0\.schema: evaluator "s"/,
    );
  });
});
