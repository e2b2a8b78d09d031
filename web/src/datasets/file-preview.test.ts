import { describe, expect, it } from "vitest";
import { builtinColumn, customColumn } from "../rows/factories";
import { defaultTargets, formatOf, importQuery, previewFile } from "./file-preview";

const columns = [
  builtinColumn("input"),
  builtinColumn("output"),
  builtinColumn("expectedOutput"),
  builtinColumn("metadata"),
  customColumn("c_topic", "topic"),
  customColumn("c_gone", "gone", { removed: true }),
];

describe("previewFile", () => {
  it("reads a CSV's header and first rows, with quoted commas and line breaks", async () => {
    const csv = 'id,question,expected_output\nq1,"2+2, then?","4"\nq2,"line one\nline two",\n';
    const preview = await previewFile(new Blob([csv]), "csv");
    expect(preview.fields).toEqual(["id", "question", "expected_output"]);
    expect(preview.rows).toEqual([
      { id: "q1", question: "2+2, then?", expected_output: "4" },
      { id: "q2", question: "line one\nline two", expected_output: "" },
    ]);
  });

  it("reads JSONL objects, with every field that the first rows have", async () => {
    const jsonl = '{"input": {"q": 1}, "output": "a"}\n\n{"input": 2, "topic": "math"}\n';
    const preview = await previewFile(new Blob([jsonl]), "jsonl");
    expect(preview.fields).toEqual(["input", "output", "topic"]);
    expect(preview.rows).toEqual([
      { input: '{"q":1}', output: "a" },
      { input: "2", topic: "math" },
    ]);
  });

  it("says which line of a JSONL file is not JSON, and that a JSON file is not an array", async () => {
    await expect(previewFile(new Blob(['{"a":1}\n{"a":']), "jsonl")).rejects.toThrow(
      "Line 2 is not valid JSON",
    );
    await expect(previewFile(new Blob(['{"a":1}']), "json")).rejects.toThrow("not a JSON array");
  });
});

describe("the mapping", () => {
  it("starts where the platform maps by name: built-ins, active columns, the id, new columns", () => {
    const targets = defaultTargets(
      ["id", "input", "expected_output", "topic", "gone", "notes"],
      columns,
      "csv",
    );
    expect(targets).toEqual({
      id: { kind: "id" },
      input: { kind: "column", identifier: "input" },
      expected_output: { kind: "column", identifier: "expectedOutput" },
      topic: { kind: "column", identifier: "c_topic" },
      gone: { kind: "new" },
      notes: { kind: "new" },
    });
    expect(importQuery(targets)).toEqual({
      map: {
        input: "input",
        expected_output: "expectedOutput",
        topic: "c_topic",
        gone: "new:gone",
        notes: "new:notes",
      },
      idField: "id",
    });
  });

  it("reads an export's headers, display names included, back to their columns", () => {
    expect(defaultTargets(["id", "Input", "Expected output", "Metadata"], columns, "csv")).toEqual({
      id: { kind: "id" },
      Input: { kind: "column", identifier: "input" },
      "Expected output": { kind: "column", identifier: "expectedOutput" },
      Metadata: { kind: "column", identifier: "metadata" },
    });
  });

  it("accepts rowId as the id of a JSON row, and leaves out the fields not to import", () => {
    const targets = defaultTargets(["rowId", "question"], columns, "jsonl");
    expect(targets.rowId).toEqual({ kind: "id" });
    expect(importQuery({ ...targets, question: { kind: "skip" } })).toEqual({ map: {}, idField: "rowId" });
  });

  it("maps a JSONL export's lines back to their cells: custom spreads over the custom columns", () => {
    const fields = ["rowId", "input", "output", "expectedOutput", "metadata", "custom"];
    const targets = defaultTargets(fields, columns, "jsonl");
    expect(targets.custom).toEqual({ kind: "cells" });
    expect(importQuery(targets)).toEqual({
      map: {
        input: "input",
        output: "output",
        expectedOutput: "expectedOutput",
        metadata: "metadata",
        custom: "custom",
      },
      idField: "rowId",
    });
    // In a CSV, "custom" is a column's name like any other.
    expect(defaultTargets(["custom"], columns, "csv").custom).toEqual({ kind: "new" });
  });

  it("knows a file's format by its name first, then by its type", () => {
    expect(formatOf({ name: "Export.CSV", type: "" })).toBe("csv");
    expect(formatOf({ name: "rows.ndjson", type: "" })).toBe("jsonl");
    expect(formatOf({ name: "rows", type: "application/json" })).toBe("json");
    expect(formatOf({ name: "notes.txt", type: "text/plain" })).toBeUndefined();
  });
});
