import type { DatasetColumn, DatasetRow } from "@svc/sdk";
import { describe, expect, it } from "vitest";
import { changedCells, conflictOf, draftOf, editCell, hasProblems, mergeOnto, patchOf } from "./row-draft";

const columns: DatasetColumn[] = [
  { identifier: "input", name: "Input", source: { kind: "builtin", field: "input" } },
  { identifier: "output", name: "Output", source: { kind: "builtin", field: "output" } },
  {
    identifier: "expectedOutput",
    name: "Expected output",
    source: { kind: "builtin", field: "expectedOutput" },
  },
  { identifier: "c1", name: "difficulty", source: { kind: "custom" } },
  { identifier: "c2", name: "topic", source: { kind: "custom" } },
];

const makeRow = (overrides: Partial<DatasetRow> = {}): DatasetRow => ({
  rowId: "r1",
  datasetId: "d1",
  input: { question: "2+2?" },
  output: "5",
  expectedOutput: null,
  metadata: {},
  custom: { c1: "easy" },
  createdAt: "2026-01-01T00:00:00.000Z",
  version: 7,
  ...overrides,
});

describe("a row being edited", () => {
  it("starts clean, with every cell as indented JSON and the row's version as the If-Match", () => {
    const draft = draftOf(makeRow(), columns);
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
    let draft = draftOf(makeRow(), columns);
    draft = editCell(draft, "expectedOutput", '{"answer": "4"}');
    draft = editCell(draft, "c2", '"arithmetic"');
    // Re-indented but equal: not a change.
    draft = editCell(draft, "input", '{"question":"2+2?"}');
    expect(patchOf(draft)).toEqual({ expectedOutput: { answer: "4" }, custom: { c2: "arithmetic" } });
  });

  it("tells a value changed to null apart from one left alone", () => {
    const draft = editCell(draftOf(makeRow(), columns), "c1", "null");
    expect(patchOf(draft)).toEqual({ custom: { c1: null } });
  });

  it("refuses invalid JSON with the line and column of the mistake, and sends nothing for it", () => {
    const draft = editCell(draftOf(makeRow(), columns), "output", '{\n  "a": 1,\n  "b": }');
    expect(hasProblems(draft)).toBe(true);
    expect(draft.cells[1]?.problem).toMatchObject({ line: 3 });
    expect(draft.cells[1]?.problem?.column).toBeGreaterThan(1);
    expect(changedCells(draft)).toEqual([]);
  });

  it("refuses a number it would save as another, where it stands, and sends nothing for it", () => {
    const draft = editCell(draftOf(makeRow(), columns), "output", '{\n  "id": 12345678901234567890\n}');
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
    const draft = editCell(draftOf(makeRow(), columns), "output", '"four"');
    const theirs = makeRow({ output: "4", expectedOutput: { answer: "4" }, version: 9 });
    expect(conflictOf(draft, theirs).cells).toEqual([
      { column: columns[1], base: "5", mine: "four", theirs: "4" },
    ]);
  });

  it("merges onto their row: my changes kept, theirs taken where I changed nothing", () => {
    const draft = editCell(draftOf(makeRow(), columns), "output", '"four"');
    const theirs = makeRow({ output: "4", expectedOutput: { answer: "4" }, version: 9 });
    const merged = mergeOnto(draft, theirs);
    expect(merged.baseVersion).toBe(9);
    expect(patchOf(merged)).toEqual({ output: "four" });
    expect(merged.cells[2]?.text).toBe('{\n  "answer": "4"\n}');
  });
});
