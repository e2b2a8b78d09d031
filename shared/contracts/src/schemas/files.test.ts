import { describe, expect, test } from "vitest";
import { csvTextToCell, isSpace, startsLikeJson } from "./files";

describe("a CSV field read as a cell", () => {
  test("JavaScript's \\s decides what counts as a space, unit by unit", () => {
    for (let unit = 0; unit < 0x10000; unit++) {
      expect([unit, isSpace(unit)]).toEqual([unit, /^\s$/.test(String.fromCharCode(unit))]);
    }
  });

  test('a text may be JSON when it starts with {, [, ", -, a digit, t, f, n or a space', () => {
    for (let unit = 0; unit < 0x10000; unit++) {
      expect([unit, startsLikeJson(unit)]).toEqual([
        unit,
        /^[\s{["\-0-9tfn]/.test(String.fromCharCode(unit)),
      ]);
    }
  });

  test("JSON is parsed, anything else kept as text, an empty field left unset", () => {
    expect(csvTextToCell("")).toBeUndefined();
    expect(csvTextToCell("42")).toBe(42);
    expect(csvTextToCell(" 7 ")).toBe(7);
    expect(csvTextToCell('"42"')).toBe("42");
    expect(csvTextToCell('{"a":1}')).toEqual({ a: 1 });
    expect(csvTextToCell("null")).toBeNull();
    expect(csvTextToCell("the truth")).toBe("the truth");
    expect(csvTextToCell("{not json}")).toBe("{not json}");
    expect(csvTextToCell("\u00a0x")).toBe("\u00a0x");
  });
});
