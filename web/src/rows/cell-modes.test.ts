import { describe, expect, it } from "vitest";
import { jsonOfPlainText, modeFor, plainTextOf, switchMode, typedLookalike } from "./cell-modes";
import { builtinColumn, customColumn, makeRow } from "./factories";
import { draftOf, editCell, patchOf, switchCellMode } from "./row-draft";

describe("a cell's editing mode", () => {
  it("starts as text for a string or an empty cell, as JSON for any other value", () => {
    expect(modeFor("a\nb")).toBe("text");
    expect(modeFor(undefined)).toBe("text");
    expect(modeFor(null)).toBe("text");
    expect(modeFor(42)).toBe("json");
    expect(modeFor(false)).toBe("json");
    expect(modeFor({ a: 1 })).toBe("json");
    expect(modeFor([])).toBe("json");
    expect(modeFor(null, builtinColumn("metadata"))).toBe("json");
    expect(modeFor(undefined, customColumn("c1", "notes"))).toBe("text");
    expect(modeFor("a note", builtinColumn("metadata"))).toBe("text");
  });

  it("shows a string without quotes or escapes, and an empty cell as nothing", () => {
    expect(plainTextOf('"line one\\nline \\"two\\""')).toBe('line one\nline "two"');
    expect(plainTextOf("null")).toBe("");
    expect(plainTextOf("42")).toBeUndefined();
    expect(plainTextOf("not json")).toBeUndefined();
  });

  it("saves what is typed as a string, and leaves an empty cell empty when nothing is typed", () => {
    expect(jsonOfPlainText("42", null)).toBe('"42"');
    expect(jsonOfPlainText("a\nb", "old")).toBe('"a\\nb"');
    expect(jsonOfPlainText("", null)).toBe("null");
    expect(jsonOfPlainText("", undefined)).toBe("null");
    expect(jsonOfPlainText("", "old")).toBe('""');
  });

  it("keeps the text 42 a string when switched to JSON, and says how to make it a number", () => {
    const switched = switchMode('"42"', "json");
    expect(switched).toMatchObject({ text: '"42"', mode: "json" });
    expect(switched.note).toMatch(/stays a string in JSON; remove its quotes to make it a number/);
    expect(switchMode('"hello"', "json").note).toBeUndefined();
  });

  it("turns another value, or JSON that does not parse, into its text when switched to text, and says so", () => {
    expect(switchMode('"hello"', "text")).toEqual({ text: '"hello"', mode: "text", note: undefined });
    const number = switchMode("42", "text");
    expect(number).toMatchObject({ text: '"42"', mode: "text" });
    expect(number.note).toMatch(/^The number is now text/);
    expect(switchMode("hello there", "text")).toMatchObject({ text: '"hello there"', mode: "text" });
  });

  it("names the values a text looks like without its quotes", () => {
    expect(["42", "-1.5e3", "true", "false", "null"].map(typedLookalike)).toEqual([
      "number",
      "number",
      "boolean",
      "boolean",
      "null",
    ]);
    expect(["042", " 42", "yes", "", "1."].map(typedLookalike)).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });
});

describe("a draft's cells in Text and JSON mode", () => {
  const columns = [builtinColumn("expectedOutput"), builtinColumn("metadata"), customColumn("c1", "score")];
  const row = makeRow({ expectedOutput: null, metadata: { source: "prod" }, custom: { c1: 3 } });

  it("starts each cell in the mode its value calls for", () => {
    expect(draftOf(row, columns).cells.map((cell) => cell.mode)).toEqual(["text", "json", "json"]);
  });

  it("saves multi-line text typed in Text mode as one string", () => {
    const draft = editCell(draftOf(row, columns), "expectedOutput", jsonOfPlainText("Paris\nFrance", null));
    expect(patchOf(draft)).toEqual({ expectedOutput: "Paris\nFrance" });
  });

  it("switches a cell to JSON to save an object, and keeps the mode through later edits", () => {
    let draft = switchCellMode(draftOf(row, columns), "expectedOutput", "json").draft;
    draft = editCell(draft, "expectedOutput", '{"answer": 4}');
    expect(draft.cells[0]?.mode).toBe("json");
    expect(patchOf(draft)).toEqual({ expectedOutput: { answer: 4 } });
  });

  it("makes a number a string only when switched to text, which is then a change to save", () => {
    const { draft, note } = switchCellMode(draftOf(row, columns), "c1", "text");
    expect(note).toMatch(/^The number is now text/);
    expect(patchOf(draft)).toEqual({ custom: { c1: "3" } });
  });
});
