import { describe, expect, test } from "vitest";
import { findUnstorableInput, MAX_INPUT_DEPTH } from "./storable";

const nul = "must not contain the character U+0000 (\\u0000), which cannot be stored";
const surrogate =
  "must not contain a UTF-16 surrogate without its pair (such as \\ud83d alone), which is not Unicode";
const tooDeep = `is nested more than ${MAX_INPUT_DEPTH} levels deep; flatten it`;

/** `{a: {a: … {a: leaf}}}` with `levels` objects. */
function nested(levels: number, leaf: unknown = 1): unknown {
  let value = leaf;
  for (let i = 0; i < levels; i++) value = { a: value };
  return value;
}

describe("input that cannot be stored", () => {
  test.each([
    [{ output: "a\u0000b" }, ["output"]],
    [{ metadata: { tags: ["ok", "x\u0000"] } }, ["metadata", "tags", 1]],
    [{ input: { "k\u0000": 1 } }, ["input", "k\u0000"]],
    [{ rows: [{ input: "fine" }, { input: "x", custom: { c: ["\u0000"] } }] }, ["rows", 1, "custom", "c", 0]],
    ["\u0000", []],
  ])("finds U+0000 in %j and names where", (value, path) => {
    expect(findUnstorableInput(value)).toEqual({ path, message: nul });
  });

  test.each([
    ["a high surrogate at the end", "smile \uD83D"],
    ["a high surrogate before a letter", "\uD83Dx"],
    ["a low surrogate alone", "x\uDE00"],
  ])("finds %s", (_what, text) => {
    expect(findUnstorableInput({ cells: [text] })).toEqual({ path: ["cells", 0], message: surrogate });
    expect(findUnstorableInput({ [text]: 1 })).toEqual({ path: [text], message: surrogate });
  });

  test("accepts a surrogate pair, twice in a row (the check keeps no state between strings)", () => {
    expect(findUnstorableInput(["\uD83D\uDE00", "\uD83D\uDE00 ok"])).toBeUndefined();
  });

  test("checks only nesting when told to leave text alone", () => {
    expect(findUnstorableInput({ a: "\u0000\uD83D" }, { text: false })).toBeUndefined();
    expect(findUnstorableInput(nested(MAX_INPUT_DEPTH + 1), { text: false })?.message).toBe(tooDeep);
  });

  test("names the first problem in document order", () => {
    expect(findUnstorableInput({ a: ["ok", "\u0000"], b: "\u0000" })).toEqual({
      path: ["a", 1],
      message: nul,
    });
  });

  test("accepts what only looks like it: a backslash and digits, and other control characters", () => {
    expect(findUnstorableInput({ output: "\\u0000 \u0001", n: 1, b: true, z: null })).toBeUndefined();
  });

  test(`accepts ${MAX_INPUT_DEPTH} levels of nesting and refuses one more, naming where`, () => {
    expect(findUnstorableInput(nested(MAX_INPUT_DEPTH))).toBeUndefined();
    const problem = findUnstorableInput(nested(MAX_INPUT_DEPTH + 1));
    expect(problem?.message).toBe(tooDeep);
    expect(problem?.path).toEqual(Array.from({ length: MAX_INPUT_DEPTH }, () => "a"));
  });

  test("walks 100,000 levels of arrays without overflowing the stack", () => {
    let value: unknown = [];
    for (let i = 0; i < 100_000; i++) value = [value];
    expect(findUnstorableInput(value)?.message).toBe(tooDeep);
  });
});
