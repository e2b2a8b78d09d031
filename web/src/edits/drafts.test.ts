import { describe, expect, it } from "vitest";
import { builtinColumn, customColumn, makeRow } from "../rows/factories";
import { draftOf, editCell, switchCellMode } from "../rows/row-draft";
import { applyStaged, batchOf, draftMatches, stageDraft, stagedCells, withoutCell } from "./drafts";

const columns = [builtinColumn("input"), builtinColumn("expectedOutput"), customColumn("c1", "difficulty")];

const row = (rowId: string, version: number) =>
  makeRow({ rowId, input: { q: rowId }, custom: { c1: "easy" }, version });

describe("the drafts", () => {
  it("keeps each row's changed cells with the version its editing began from", () => {
    let draft = draftOf(row("r1", 3), columns);
    draft = editCell(draft, "expectedOutput", '"four"');
    draft = editCell(draft, "c1", '"hard"');
    const drafts = stageDraft([], draftOf(row("r0", 1), columns));
    expect(drafts).toEqual([]);
    const staged = stageDraft(drafts, draft);
    expect(staged).toEqual([
      {
        rowId: "r1",
        baseVersion: 3,
        texts: { expectedOutput: '"four"', c1: '"hard"' },
        before: { expectedOutput: null, c1: "easy" },
        modes: { expectedOutput: "text", c1: "text" },
      },
    ]);
    // Staging the same draft again changes nothing; a clean draft takes the row out.
    expect(stageDraft(staged, draft)).toBe(staged);
    expect(stageDraft(staged, draftOf(row("r1", 3), columns))).toEqual([]);
  });

  it("keeps a half-typed value as text, and does not save until it is JSON", () => {
    const draft = editCell(draftOf(row("r1", 3), columns), "expectedOutput", '{"answer": ');
    const drafts = stageDraft([], draft);
    expect(stagedCells(drafts, columns)).toEqual([
      expect.objectContaining({ rowId: "r1", text: '{"answer": ', after: undefined }),
    ]);
    expect(batchOf(drafts, columns)).toBeUndefined();
  });

  it("saves as one batch edit with each row's If-Match, custom cells by identifier", () => {
    let drafts = stageDraft([], editCell(draftOf(row("r1", 3), columns), "expectedOutput", '"4"'));
    const second = editCell(editCell(draftOf(row("r2", 5), columns), "c1", '"hard"'), "input", '{"q": 2}');
    drafts = stageDraft(drafts, second);
    expect(batchOf(drafts, columns)).toEqual({
      edits: [
        { rowId: "r1", ifMatch: 3, expectedOutput: "4" },
        { rowId: "r2", ifMatch: 5, input: { q: 2 }, custom: { c1: "hard" } },
      ],
    });
  });

  it("leaves out the cells of a column removed since they were staged", () => {
    let drafts = stageDraft([], editCell(draftOf(row("r1", 3), columns), "c1", '"hard"'));
    drafts = stageDraft(drafts, editCell(draftOf(row("r2", 4), columns), "expectedOutput", '"4"'));
    const remaining = columns.filter((column) => column.identifier !== "c1");
    expect(batchOf(drafts, remaining)).toEqual({
      edits: [{ rowId: "r2", ifMatch: 4, expectedOutput: "4" }],
    });
    expect(stagedCells(drafts, remaining).map((cell) => cell.rowId)).toEqual(["r2"]);
  });

  it("undoes one cell, and the row leaves the drafts with its last cell", () => {
    const draft = editCell(editCell(draftOf(row("r1", 3), columns), "expectedOutput", '"4"'), "c1", '"hard"');
    let drafts = stageDraft([], draft);
    drafts = withoutCell(drafts, "r1", "c1");
    expect(drafts[0]?.texts).toEqual({ expectedOutput: '"4"' });
    expect(withoutCell(drafts, "r1", "expectedOutput")).toEqual([]);
  });

  it("gives the editor back what was staged, and tells a draft that matches what is staged", () => {
    const edited = editCell(draftOf(row("r1", 3), columns), "expectedOutput", '"4"');
    const staged = stageDraft([], edited)[0];
    // The row moved on to version 7 meanwhile: the editor shows the staged cell and keeps version 3.
    const reopened = applyStaged(draftOf(row("r1", 7), columns), staged);
    expect(reopened.baseVersion).toBe(3);
    expect(reopened.cells.find((c) => c.column.identifier === "expectedOutput")?.text).toBe('"4"');
    expect(draftMatches(edited, staged)).toBe(true);
    expect(draftMatches(draftOf(row("r1", 3), columns), staged)).toBe(false);
    expect(draftMatches(draftOf(row("r1", 3), columns), undefined)).toBe(true);
  });

  it("keeps each cell's mode, and reads drafts staged before modes as JSON", () => {
    const draft = switchCellMode(draftOf(row("r1", 3), columns), "expectedOutput", "json").draft;
    const drafts = stageDraft([], editCell(draft, "expectedOutput", "42"));
    expect(drafts[0]?.modes).toEqual({ expectedOutput: "json" });
    const back = applyStaged(draftOf(row("r1", 3), columns), drafts[0]);
    expect(back.cells.map((cell) => cell.mode)).toEqual(["json", "json", "text"]);
    expect(draftMatches(back, drafts[0])).toBe(true);
    const legacy = { rowId: "r1", baseVersion: 3, texts: { c1: '"hard"' }, before: { c1: "easy" } };
    expect(applyStaged(draftOf(row("r1", 3), columns), legacy).cells[2]).toMatchObject({
      text: '"hard"',
      mode: "json",
    });
  });
});
