import { type BuiltinField, builtinFields, DomainError, isBuiltinField } from "@svc/contracts";
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
  const error = cellsRejection(builtins, customKeys, (key, as) =>
    as === "custom" ? active.get(key)?.kind !== "custom" : !active.has(key),
  );
  if (error) throw error;
}

/**
 * The error for the first refused cell, custom keys first, then built-in fields: a custom key that
 * names a built-in field, or a key `isRefused` refuses (a custom key naming no active custom column,
 * a built-in field whose column was removed).
 */
export function cellsRejection(
  builtins: readonly BuiltinField[],
  customKeys: Iterable<string>,
  isRefused: (key: string, as: "custom" | "builtin") => boolean,
): DomainError | undefined {
  for (const key of customKeys) {
    if (isBuiltinField(key)) {
      return new DomainError(
        "unknown_column",
        `"${key}" is a built-in field, not a custom column; set it at the top level of the body, not in "custom"`,
        { column: key },
      );
    }
    if (isRefused(key, "custom")) return unknownColumn(key);
  }
  for (const field of builtins) {
    if (isRefused(field, "builtin")) return unknownColumn(field);
  }
  return undefined;
}

export const unknownColumn = (identifier: string) =>
  new DomainError(
    "unknown_column",
    `Unknown or removed column "${identifier}"; list the dataset's columns to see the active identifiers`,
    { column: identifier },
  );

export const presentBuiltins = (cells: Partial<Record<BuiltinField, unknown>>): BuiltinField[] =>
  builtinFields.filter((field) => field in cells);
