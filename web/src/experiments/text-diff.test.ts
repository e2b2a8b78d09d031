import { describe, expect, it } from "vitest";
import { outputDiff, sameText } from "./text-diff";

describe("outputDiff", () => {
  it("marks the words the output added and the expected words it left out", () => {
    expect(outputDiff("The refund takes five days", "The refund takes seven days")).toEqual([
      { text: "The refund takes ", kind: "same" },
      { text: "five", kind: "removed" },
      { text: "seven", kind: "added" },
      { text: " days", kind: "same" },
    ]);
  });

  it("compares single words character by character", () => {
    expect(
      outputDiff("1024", "1042")
        ?.filter((part) => part.kind !== "same")
        .map((p) => p.text)
        .join(""),
    ).toMatch(/^[24]+$/);
    expect(outputDiff(4, 4)).toEqual([{ text: "4", kind: "same" }]);
  });

  it("replaces a single word whole when it has little in common with the expected one", () => {
    expect(outputDiff("Jupiter", "Saturn")).toEqual([
      { text: "Jupiter", kind: "removed" },
      { text: "Saturn", kind: "added" },
    ]);
  });

  it("compares JSON values as their compact text", () => {
    const parts = outputDiff({ answer: "4" }, { answer: "5" }) ?? [];
    expect(
      parts
        .filter((part) => part.kind === "removed")
        .map((part) => part.text)
        .join(""),
    ).toContain("4");
    expect(
      parts
        .filter((part) => part.kind === "added")
        .map((part) => part.text)
        .join(""),
    ).toContain("5");
    expect(sameText(parts)).toBe(false);
  });

  it("says nothing when either side is missing or too long to compare", () => {
    expect(outputDiff(undefined, "x")).toBeUndefined();
    expect(outputDiff("x", null)).toBeUndefined();
    expect(outputDiff("a".repeat(20_001), "b")).toBeUndefined();
  });

  it("finds nothing to mark when the output is the expected output", () => {
    expect(sameText(outputDiff("same words here", "same words here") ?? [])).toBe(true);
  });
});
