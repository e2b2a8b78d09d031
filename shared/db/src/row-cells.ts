import type { BuiltinField, Cell, DatasetColumn, DatasetRow } from "@svc/contracts";

/**
 * A row's cells as stored: the built-in cells and the custom object keyed by column identifier. The
 * custom cells of removed columns are kept; which cells a caller sees is decided by `visibleCells`.
 */
export interface RowCells {
  input: Cell;
  output: Cell;
  expectedOutput: Cell;
  metadata: Cell;
  custom: Record<string, Cell>;
}

/** What a reader may see of a row: the active built-in fields and the active custom columns. */
export interface Visibility {
  fields: BuiltinField[];
  customIdentifiers: string[];
}

export type VisibleCells = Pick<DatasetRow, "input" | "output" | "expectedOutput" | "metadata" | "custom">;

export function visibilityOf(columns: readonly DatasetColumn[]): Visibility {
  const active = columns.filter((column) => column.removed !== true);
  return {
    fields: active.flatMap((column) => (column.source.kind === "builtin" ? [column.source.field] : [])),
    customIdentifiers: active.filter((column) => column.source.kind === "custom").map((c) => c.identifier),
  };
}

/**
 * Leaves out the cells of removed columns: a removed built-in field is absent from the row, a removed
 * custom column's cell is absent from `custom`. The data stays stored, so restoring the column shows it.
 */
export function visibleCells(cells: RowCells, visibility: Visibility): VisibleCells {
  const shown: VisibleCells = { custom: {} };
  for (const field of visibility.fields) shown[field] = cells[field];
  for (const identifier of visibility.customIdentifiers) {
    const value = cells.custom[identifier];
    if (value !== undefined) shown.custom[identifier] = value;
  }
  return shown;
}
