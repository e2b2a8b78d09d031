import type { DatasetRow } from "@svc/sdk";
import { describe, expect, it } from "vitest";
import { builtinColumn, customColumn, makeRow } from "./factories";
import { namedRows, previewSetCell, selectionScope, setCellBatch, toggleChecked } from "./selection";

const order = ["a", "b", "c", "d", "e"];

describe("checking rows", () => {
  it("toggles one row, and with Shift the whole range from the last row clicked", () => {
    let checked = toggleChecked(new Set(), "b", false, undefined, order);
    expect([...checked]).toEqual(["b"]);
    checked = toggleChecked(checked, "e", true, "b", order);
    expect([...checked].sort()).toEqual(["b", "c", "d", "e"]);
    // Shift-clicking a checked row clears the range up to it.
    checked = toggleChecked(checked, "c", true, "e", order);
    expect([...checked]).toEqual(["b"]);
    // Without an anchor, or with one no longer loaded, Shift toggles the one row.
    expect([...toggleChecked(new Set(), "c", true, "zz", order)]).toEqual(["c"]);
  });
});

const [output, expected, label] = [
  builtinColumn("output"),
  builtinColumn("expectedOutput"),
  customColumn("c1", "label"),
];
const row = (rowId: string, version: number, cells: Partial<DatasetRow>) =>
  makeRow({ rowId, version, ...cells });

describe("setting a cell across rows", () => {
  const rows = [
    row("r1", 1, { output: "4", expectedOutput: null }),
    row("r2", 3, { output: { a: 1 }, expectedOutput: { a: 1 } }),
    row("r3", 2, { output: null, custom: { c1: "x" } }),
  ];

  it("copies another cell of each row, leaving out rows it would not change", () => {
    const changes = previewSetCell(rows, expected, { kind: "cell", column: output });
    expect(changes).toEqual([{ rowId: "r1", now: null, next: "4" }]);
    expect(setCellBatch(changes, rows, expected)).toEqual({
      edits: [{ rowId: "r1", ifMatch: 1, expectedOutput: "4" }],
    });
  });

  it("sets a custom column to one value, by identifier, with each row's If-Match", () => {
    const changes = previewSetCell(rows, label, { kind: "value", value: "x" });
    expect(changes.map((c) => c.rowId)).toEqual(["r1", "r2"]);
    expect(setCellBatch(changes, rows, label).edits).toEqual([
      { rowId: "r1", ifMatch: 1, custom: { c1: "x" } },
      { rowId: "r2", ifMatch: 3, custom: { c1: "x" } },
    ]);
  });
});

describe("what a selection is of", () => {
  it("changes with the search, the filters and the version, not with the order", () => {
    const scope = selectionScope({ sortDirection: "desc", search: "paris", missing: "expectedOutput" });
    expect(selectionScope({ missing: "expectedOutput", search: "paris", sortDirection: "asc" })).toBe(scope);
    expect(selectionScope({ sortDirection: "desc", search: "lima", missing: "expectedOutput" })).not.toBe(
      scope,
    );
    expect(selectionScope({ sortDirection: "desc", search: "paris" })).not.toBe(scope);
    expect(
      selectionScope({ sortDirection: "desc", search: "paris", missing: "expectedOutput", version: 3 }),
    ).not.toBe(scope);
  });

  it("names the rows a change reaches, then how many more", () => {
    expect(namedRows(["m1"])).toBe("m1");
    expect(namedRows(["m1", "m2"])).toBe("m1 and m2");
    expect(namedRows(["m1", "m2", "m3"])).toBe("m1, m2 and m3");
    const many = Array.from({ length: 1012 }, (_, i) => `r${i}`);
    expect(namedRows(many, 3)).toBe("r0, r1, r2 and 1,009 more");
  });
});
