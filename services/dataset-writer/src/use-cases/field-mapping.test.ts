import { describe, expect, it } from "vitest";
import type { ColumnRecord } from "../repositories/columns";
import { FieldMapping } from "./field-mapping";

const column = (identifier: string, name: string, kind: "builtin" | "custom", position: number) => ({
  identifier,
  name,
  kind,
  field: kind === "builtin" ? identifier : null,
  position,
  removed: false,
});
const columns: ColumnRecord[] = [
  column("input", "Input", "builtin", 0),
  column("output", "Output", "builtin", 1),
  column("expectedOutput", "Expected output", "builtin", 2),
  column("metadata", "Metadata", "builtin", 3),
  column("k3vlabelk3vlabelk3vlabel", "label", "custom", 4),
  column("k3vscorek3vscorek3vscore", "score", "custom", 5),
];
const exported = {
  rowId: "r1",
  input: { q: 1 },
  output: "o",
  expectedOutput: null,
  metadata: {},
  custom: { k3vlabelk3vlabelk3vlabel: "a", k3vscorek3vscorek3vscore: 0.5 },
};
const mapOfExport = {
  input: "input",
  output: "output",
  expectedOutput: "expectedOutput",
  metadata: "metadata",
  custom: "custom",
};

describe("the fields of an exported line, mapped back", () => {
  it('spreads a field mapped to "custom" over the custom columns it names, as without a map', () => {
    const mapped = new FieldMapping(columns, { mode: "update", map: mapOfExport, idField: "rowId" }, "jsonl");
    const unmapped = new FieldMapping(columns, { mode: "update" }, "jsonl");
    const staged = mapped.stage({ line: 1, fields: exported }, 0);
    expect(staged).toEqual({
      seq: 0,
      line: 1,
      rowId: "r1",
      cells: { input: { q: 1 }, output: "o", expectedOutput: null, metadata: {} },
      custom: { k3vlabelk3vlabelk3vlabel: "a", k3vscorek3vscorek3vscore: 0.5 },
    });
    expect(unmapped.stage({ line: 1, fields: exported }, 0)).toEqual(staged);
  });

  it("takes null there as no custom cell, and refuses a value that is not an object, naming its line", () => {
    const mapping = new FieldMapping(
      columns,
      { mode: "update", map: mapOfExport, idField: "rowId" },
      "jsonl",
    );
    expect(mapping.stage({ line: 2, fields: { ...exported, custom: null } }, 1).custom).toEqual({});
    expect(() => mapping.stage({ line: 3, fields: { ...exported, custom: "a" } }, 2)).toThrow(
      /^Line 3: field "custom" must be an object of custom cells/,
    );
  });
});

describe("fields kept as text", () => {
  it("are read as text from a CSV file", () => {
    const mapping = new FieldMapping(columns, { mode: "insert", textFields: ["label"] }, "csv");
    expect([...mapping.textFields]).toEqual(["label"]);
  });

  it("are refused for a file whose values are typed already, saying why", () => {
    expect(() => new FieldMapping(columns, { mode: "insert", textFields: ["label"] }, "jsonl")).toThrow(
      /^textFields is for CSV files/,
    );
    expect(new FieldMapping(columns, { mode: "insert", textFields: [] }, "jsonl").textFields.size).toBe(0);
  });
});
