import type { DatasetColumn, DatasetRow } from "@svc/sdk";

type BuiltinField = "input" | "output" | "expectedOutput" | "metadata";

const BUILTIN_NAMES: Record<BuiltinField, string> = {
  input: "Input",
  output: "Output",
  expectedOutput: "Expected output",
  metadata: "Metadata",
};

/** A built-in column, named as the platform names it: `builtinColumn("expectedOutput")`. */
export const builtinColumn = (field: BuiltinField): DatasetColumn => ({
  identifier: field,
  name: BUILTIN_NAMES[field],
  source: { kind: "builtin", field },
});

/** A custom column: `customColumn("c1", "difficulty")`, or a removed one with `{ removed: true }`. */
export const customColumn = (
  identifier: string,
  name: string,
  extra: Pick<DatasetColumn, "removed"> = {},
): DatasetColumn => ({ identifier, name, source: { kind: "custom" }, ...extra });

/** Row r1 of dataset d1 at version 1, every cell null, but for `overrides`. */
export const makeRow = (overrides: Partial<DatasetRow> = {}): DatasetRow => ({
  rowId: "r1",
  datasetId: "d1",
  input: null,
  output: null,
  expectedOutput: null,
  metadata: null,
  custom: {},
  createdAt: "2026-01-01T00:00:00.000Z",
  version: 1,
  ...overrides,
});
