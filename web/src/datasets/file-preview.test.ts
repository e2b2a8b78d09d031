import { describe, expect, it } from "vitest";
import { builtinColumn, customColumn } from "../rows/factories";
import {
  csvRetyping,
  defaultTargets,
  formatOf,
  importQuery,
  previewFile,
  retypedFields,
  UnreadableFile,
} from "./file-preview";

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

  it("says that an empty file, a header alone or blank lines hold nothing to import", async () => {
    const problem = (text: string, format: "csv" | "jsonl" | "json" | "parquet" = "csv") =>
      previewFile(new Blob([text]), format).catch((error: unknown) => error);
    for (const format of ["csv", "jsonl", "json", "parquet"] as const) {
      expect(await problem("", format)).toEqual(
        new UnreadableFile("This file is empty: there is nothing to import."),
      );
    }
    expect(await problem("id,input,output\n")).toEqual(
      new UnreadableFile("This file has a header row and no rows below it: there is nothing to import."),
    );
    expect(await problem("\n\n")).toBeInstanceOf(UnreadableFile);
    expect(await problem("\n \n", "jsonl")).toBeInstanceOf(UnreadableFile);
    expect(await problem("[]", "json")).toBeInstanceOf(UnreadableFile);
  });

  it("names a header that is there twice", async () => {
    const error = await previewFile(new Blob(["id,input,output,input\nr1,a,b,c\n"]), "csv").catch((e) => e);
    expect(error).toEqual(
      new UnreadableFile(
        "The header row names “input” twice (fields 2 and 4): give each field its own name in the first row.",
      ),
    );
  });

  it("says a binary file is not text, and shows none of its bytes", async () => {
    const zip = new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00, 0x06, 0x00, 0xff, 0xfe, 0x41]);
    const latin1 = new Uint8Array([0x69, 0x64, 0x0a, 0xe9, 0x74, 0xe9, 0x0a]);
    for (const bytes of [zip, latin1]) {
      const error = (await previewFile(new Blob([bytes]), "csv").catch((e) => e)) as Error;
      expect(error).toBeInstanceOf(UnreadableFile);
      expect(error.message).toMatch(/^This file is not text: it holds binary data/);
    }
  });

  it("reads a large file's head even when the cut falls inside a character", async () => {
    // 11 bytes of header, then rows of 5 bytes: the preview's 262,144 bytes end inside an "é".
    const text = `id,answers\n${"r,é\n".repeat(60_000)}`;
    expect(
      new TextEncoder()
        .encode(text)
        .slice(0, 256 * 1024)
        .at(-1),
    ).toBe(0xc3);
    const preview = await previewFile(new Blob([text]), "csv");
    expect(preview.fields).toEqual(["id", "answers"]);
    expect(preview.rows).toHaveLength(5);
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

describe("what a CSV import makes of a field's text", () => {
  it("names the values that would not stay text", () => {
    expect(["42", "-1.5", "true", "false", "null", '{"a":1}', "[1]", '"42"'].map(csvRetyping)).toEqual([
      "number",
      "number",
      "boolean",
      "boolean",
      "null",
      "object",
      "array",
      "text without its quotes",
    ]);
    expect(["Paris", "", "'=1+2", "{not json}", "42 apples"].map(csvRetyping)).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });

  it("lists, per field of the preview, the kinds its first rows would become", () => {
    const preview = {
      fields: ["zip", "answer", "note"],
      rows: [
        { zip: "02134", answer: "true", note: "fine" },
        { zip: "10001", answer: "null", note: "" },
      ],
    };
    expect(retypedFields(preview)).toEqual({ zip: ["number"], answer: ["boolean", "null"] });
  });

  it("asks to keep as text only the fields the import takes", () => {
    const targets = {
      zip: { kind: "new" as const },
      answer: { kind: "column" as const, identifier: "expectedOutput" },
      skipped: { kind: "skip" as const },
    };
    expect(importQuery(targets, new Set(["zip", "skipped"]))).toEqual({
      map: { zip: "new:zip", answer: "expectedOutput" },
      textFields: ["zip"],
    });
    expect(importQuery(targets, new Set())).toEqual({ map: { zip: "new:zip", answer: "expectedOutput" } });
  });
});
