import { describe, expect, it } from "vitest";
import { findInexactNumber, findNumberOutOfRange, isExact } from "./exact-numbers";

describe("numbers a double holds exactly", () => {
  it.each([
    "0",
    "-0",
    "0.0",
    "1.50",
    "1E2",
    "100e-2",
    "0.1",
    "0.30000000000000004",
    "9007199254740992",
    "123456789012345",
    "1.7976931348623157e308",
    "5e-324",
    "1e400",
  ])("takes %s", (number) => {
    expect(isExact(number)).toBe(true);
  });

  it.each([
    "12345678901234567890",
    "9007199254740993",
    "-9007199254740993",
    "3.14159265358979323846",
    "1e-400",
    "0.1000000000000000000001",
  ])("finds that %s would change", (number) => {
    expect(isExact(number)).toBe(false);
  });

  it("finds the first such number outside strings, with where it starts", () => {
    const text = '{"id":"12345678901234567890","n":[1.5,-12345678901234567890]}';
    expect(findInexactNumber(text)).toEqual({ text: "-12345678901234567890", index: text.indexOf("-123") });
    expect(findInexactNumber('{"a":"\\"12345678901234567890"}')).toBeUndefined();
    const second = '{"a":0.30000000000000004,"b":123456789012345678}';
    expect(findInexactNumber(second)).toEqual({ text: "123456789012345678", index: second.indexOf("1234") });
  });

  it("looks no further in a text without a long number", () => {
    expect(findInexactNumber(`{"a":"${"x".repeat(1000)}","b":12345}`)).toBeUndefined();
  });
});

describe("numbers beyond a double's range", () => {
  const found = (text: string) => findNumberOutOfRange(JSON.parse(text), text);

  it.each([
    ['{"output":1e309}', ["output"]],
    ['{"a":[1,-1e999]}', ["a", 1]],
    ['{"rows":[{"input":{"b":1E+400}}]}', ["rows", 0, "input", "b"]],
    ['{"__proto__":{"x":1e400}}', ["__proto__", "x"]],
    [`{"n":1${"0".repeat(300)}e9}`, ["n"]],
    [`[1${"0".repeat(309)}]`, [0]],
    ["1e400", []],
  ])("finds the one in %s at %j", (text, path) => {
    expect(found(text)).toEqual(path);
  });

  it.each([
    '{"a":1.7976931348623157e308,"b":-1e308,"c":5e-324,"d":1e-400}',
    '{"a":"1e400","b":0}',
    `{"a":1${"0".repeat(200)}e99}`,
  ])("finds none in %s", (text) => {
    expect(found(text)).toBeUndefined();
  });

  it("walks a deeply nested value without recursion", () => {
    const text = `${"[".repeat(50_000)}1e400${"]".repeat(50_000)}`;
    expect(found(text)).toHaveLength(50_000);
  });
});
