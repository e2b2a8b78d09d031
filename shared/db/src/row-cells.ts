import type { Cell } from "@svc/contracts";

/**
 * A row's cells as stored: the built-in cells and the custom object keyed by column identifier. The
 * custom cells of removed columns are kept; which cells a caller sees is for the caller to decide.
 */
export interface RowCells {
  input: Cell;
  output: Cell;
  expectedOutput: Cell;
  metadata: Cell;
  custom: Record<string, Cell>;
}
