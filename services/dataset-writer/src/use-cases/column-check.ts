import { type BuiltinField, DomainError, isBuiltinField } from "@svc/contracts";
import type { ColumnRecord } from "../repositories/columns";

/**
 * Refuses any cell the dataset's active columns do not accept: a custom key naming an unknown or
 * removed custom column or a built-in field, or a built-in cell whose column was removed.
 */
export function assertCellsAccepted(
  columns: readonly ColumnRecord[],
  builtins: readonly BuiltinField[],
  customKeys: Iterable<string>,
): void {
  const active = new Map(columns.filter((c) => !c.removed).map((c) => [c.identifier, c]));
  for (const key of customKeys) {
    if (isBuiltinField(key)) {
      throw new DomainError(
        "unknown_column",
        `"${key}" is a built-in field, not a custom column; set it at the top level of the body, not in "custom"`,
        { column: key },
      );
    }
    if (active.get(key)?.kind !== "custom") throw unknownColumn(key);
  }
  for (const field of builtins) {
    if (!active.has(field)) throw unknownColumn(field);
  }
}

const unknownColumn = (identifier: string) =>
  new DomainError(
    "unknown_column",
    `Unknown or removed column "${identifier}"; list the dataset's columns to see the active identifiers`,
    { column: identifier },
  );

export const presentBuiltins = (cells: Partial<Record<BuiltinField, unknown>>): BuiltinField[] =>
  (["input", "output", "expectedOutput", "metadata"] as const).filter((field) => field in cells);
