import type { DatasetRow } from "@svc/sdk";
import { describe, expect, it } from "vitest";
import { builtinColumn, customColumn, makeRow } from "./factories";
import { changedCells, conflictOf, draftOf, editCell, hasProblems, mergeOnto, patchOf } from "./row-draft";

const columns = [
  builtinColumn("input"),
  builtinColumn("output"),
  builtinColumn("expectedOutput"),
  customColumn("c1", "difficulty"),
  customColumn("c2", "topic"),
];

const row = (overrides: Partial<DatasetRow> = {}) =>
  makeRow({
    input: { question: "2+2?" },
    output: "5",
    metadata: {},
    custom: { c1: "easy" },
    version: 7,
    ...overrides,
  });

describe("a row being edited", () => {
  it("starts clean, with every cell as indented JSON and the row's version as the If-Match", () => {
    const draft = draftOf(row(), columns);
    expect(draft.baseVersion).toBe(7);
    expect(draft.cells.map((c) => c.text)).toEqual([
      '{\n  "question": "2+2?"\n}',
      '"5"',
      "null",
      '"easy"',
      "null",
    ]);
    expect(patchOf(draft)).toBeUndefined();
  });

  it("sends only the cells whose value changed, custom ones by identifier", () => {
    let draft = draftOf(row(), columns);
    draft = editCell(draft, "expectedOutput", '{"answer": "4"}');
    draft = editCell(draft, "c2", '"arithmetic"');
    // Re-indented but equal: not a change.
    draft = editCell(draft, "input", '{"question":"2+2?"}');
    expect(patchOf(draft)).toEqual({ expectedOutput: { answer: "4" }, custom: { c2: "arithmetic" } });
  });

  it("tells a value changed to null apart from one left alone", () => {
    const draft = editCell(draftOf(row(), columns), "c1", "null");
    expect(patchOf(draft)).toEqual({ custom: { c1: null } });
  });

  it("refuses invalid JSON with the line and column of the mistake, and sends nothing for it", () => {
    const draft = editCell(draftOf(row(), columns), "output", '{\n  "a": 1,\n  "b": }');
    expect(hasProblems(draft)).toBe(true);
    expect(draft.cells[1]?.problem).toMatchObject({ line: 3 });
    expect(draft.cells[1]?.problem?.column).toBeGreaterThan(1);
    expect(changedCells(draft)).toEqual([]);
  });

  it("refuses a number it would save as another, where it stands, and sends nothing for it", () => {
    const draft = editCell(draftOf(row(), columns), "output", '{\n  "id": 12345678901234567890\n}');
    expect(draft.cells[1]?.problem).toEqual({
      message:
        "12345678901234567890 cannot be saved exactly (a number keeps about 15 significant digits); write it as a string",
      line: 2,
      column: 9,
    });
    expect(changedCells(draft)).toEqual([]);
    expect(patchOf(editCell(draft, "output", '{"id": "12345678901234567890"}'))).toEqual({
      output: { id: "12345678901234567890" },
    });
  });

  it("compares base, theirs and mine for each changed cell when someone saved meanwhile", () => {
    const draft = editCell(draftOf(row(), columns), "output", '"four"');
    const theirs = row({ output: "4", expectedOutput: { answer: "4" }, version: 9 });
    expect(conflictOf(draft, theirs).cells).toEqual([
      { column: columns[1], base: "5", mine: "four", theirs: "4" },
    ]);
  });

  it("merges onto their row: my changes kept, theirs taken where I changed nothing", () => {
    const draft = editCell(draftOf(row(), columns), "output", '"four"');
    const theirs = row({ output: "4", expectedOutput: { answer: "4" }, version: 9 });
    const merged = mergeOnto(draft, theirs);
    expect(merged.baseVersion).toBe(9);
    expect(patchOf(merged)).toEqual({ output: "four" });
    expect(merged.cells[2]?.text).toBe('{\n  "answer": "4"\n}');
  });
});
