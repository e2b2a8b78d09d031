import {
  type BuiltinField,
  DomainError,
  findUnstorableInput,
  type ImportFormat,
  type ImportStart,
  isBuiltinField,
  MAX_CUSTOM_COLUMNS,
  newId,
  ROW_ID_PATTERN,
} from "@svc/contracts";
import type { Database } from "@svc/db";
import type { Kysely } from "kysely";
import type { FileRecord } from "../domain/file-record";
import { badLine } from "../domain/record-checks";
import { type ColumnRecord, insertCustomColumns, listColumns } from "../repositories/columns";
import type { StagedRow } from "../repositories/imports";

type Target =
  | { kind: "id" }
  | { kind: "builtin"; field: BuiltinField }
  | { kind: "custom"; identifier: string }
  /** An object of custom cells by column identifier or name, as an export writes `custom`. */
  | { kind: "cells" }
  | { kind: "skip" };

/** The map target of a field that holds a row's custom cells as one object. */
export const CUSTOM_CELLS_TARGET = "custom";

/** A Map, as every lookup of a file's field name: `constructor` is a field name, not Object's. */
const BUILTIN_ALIASES = new Map<string, BuiltinField>([
  ["input", "input"],
  ["output", "output"],
  ["expectedOutput", "expectedOutput"],
  ["expected_output", "expectedOutput"],
  ["metadata", "metadata"],
]);

/**
 * Where each field of a file goes: the `map` of the import, or names (API.md). Columns the file asks
 * for are given identifiers when first met and created in the import's own transaction, so an import
 * that fails creates none.
 */
export class FieldMapping {
  private readonly targets = new Map<string, Target>();
  private readonly created = new Map<string, { identifier: string; name: string }>();
  /** The active columns by identifier, and by display name in lower case (the first in order). */
  private readonly byIdentifier = new Map<string, ColumnRecord>();
  private readonly byLowerName = new Map<string, ColumnRecord>();
  private readonly removed = new Set<string>();
  private readonly customCount: number;
  private readonly idFields: Set<string>;
  /** The CSV fields read as text, whatever they look like (`textFields` of the import). */
  readonly textFields: ReadonlySet<string>;

  constructor(
    columns: readonly ColumnRecord[],
    private readonly query: ImportStart["query"],
    private readonly format: ImportFormat,
  ) {
    for (const column of columns) {
      if (column.removed) {
        this.removed.add(column.identifier);
        continue;
      }
      this.byIdentifier.set(column.identifier, column);
      const name = column.name.toLowerCase();
      if (!this.byLowerName.has(name)) this.byLowerName.set(name, column);
    }
    this.customCount = [...this.byIdentifier.values()].filter((column) => column.kind === "custom").length;
    this.idFields = new Set(query.idField ? [query.idField] : format === "csv" ? ["id"] : ["id", "rowId"]);
    if (query.textFields !== undefined && query.textFields.length > 0 && format !== "csv") {
      throw new DomainError(
        "validation_failed",
        `textFields is for CSV files, whose fields are text; a ${format} file's values are typed already: send the values as strings, or leave textFields out`,
        { format },
      );
    }
    this.textFields = new Set(query.textFields ?? []);
    for (const [field, to] of Object.entries(query.map ?? {}))
      this.targets.set(field, this.mapped(field, to));
  }

  /** One record as a staged row; throws a bad line for a record that cannot be imported. */
  stage({ line, fields, text }: FileRecord, seq: number): StagedRow {
    const cells: Record<string, unknown> = {};
    const custom: Record<string, unknown> = {};
    let rowId: string | undefined;
    for (const [field, value] of Object.entries(fields)) {
      const unstorable = findUnstorableInput(value);
      if (unstorable) throw badLine(line, `field "${field}": ${unstorable.message}`, { field });
      const unmappedCells =
        field === "custom" && this.query.map === undefined && this.format !== "csv" && isObject(value);
      const target = unmappedCells ? ({ kind: "cells" } as const) : this.targetOf(field);
      if (target.kind === "cells") {
        if (value === null) continue;
        if (!isObject(value)) {
          throw badLine(line, `field "${field}" must be an object of custom cells by column`, { field });
        }
        for (const [key, cell] of Object.entries(value)) {
          const column = this.byName(key, true);
          if (column.kind === "custom") custom[column.identifier] = cell;
        }
      } else if (target.kind === "id")
        rowId = this.rowIdOf(line, field, text && Object.hasOwn(text, field) ? text[field] : value);
      else if (target.kind === "builtin") cells[target.field] = value;
      else if (target.kind === "custom") custom[target.identifier] = value;
    }
    if (rowId === undefined) {
      if (this.query.mode === "update") {
        throw badLine(
          line,
          `no row id: mode=update needs the field "${[...this.idFields].join('" or "')}" on every line`,
        );
      }
      rowId = newId();
    }
    return { seq, line, rowId, cells, custom };
  }

  /**
   * Creates the columns the file asked for; refuses a mapped column removed since the import began,
   * a name taken meanwhile, and more columns than a dataset may have.
   */
  async createColumns(trx: Kysely<Database>, datasetId: string): Promise<void> {
    const now = await listColumns(trx, datasetId);
    const active = new Set<string>();
    const names = new Set<string>();
    let customCount = 0;
    for (const column of now) {
      if (column.removed) continue;
      active.add(column.identifier);
      names.add(column.name.toLowerCase());
      if (column.kind === "custom") customCount++;
    }
    const created = new Set([...this.created.values()].map((column) => column.identifier));
    for (const target of this.targets.values()) {
      if (target.kind !== "custom" || created.has(target.identifier)) continue;
      if (!active.has(target.identifier)) {
        throw unknownColumn(target.identifier, "was removed while the file was imported");
      }
    }
    for (const column of this.created.values()) {
      if (names.has(column.name.toLowerCase())) {
        throw new DomainError(
          "conflict",
          `A column named "${column.name}" was added while the file was imported; import it again`,
          { name: column.name },
        );
      }
    }
    if (customCount + this.created.size > MAX_CUSTOM_COLUMNS)
      throw tooManyColumns(customCount, this.created.size);
    await insertCustomColumns(trx, datasetId, [...this.created.values()]);
  }

  private targetOf(field: string): Target {
    let target = this.targets.get(field);
    if (target === undefined) {
      target = this.idFields.has(field)
        ? { kind: "id" }
        : this.query.map
          ? { kind: "skip" }
          : this.byName(field, false);
      this.targets.set(field, target);
    }
    return target;
  }

  /** Without a map: a built-in cell, an active column by identifier or display name, else a new column. */
  private byName(field: string, customOnly: boolean): Target {
    const builtin = BUILTIN_ALIASES.get(field);
    if (builtin && !customOnly) return this.builtinTarget(builtin, field);
    // An export heads a custom column named like a built-in field "name (identifier)".
    const suffixed = /\(([A-Za-z0-9_]{1,64})\)$/.exec(field)?.[1];
    const bySuffix = suffixed === undefined ? undefined : this.byIdentifier.get(suffixed);
    const column =
      this.byIdentifier.get(field) ??
      this.byLowerName.get(field.toLowerCase()) ??
      (bySuffix && field === `${bySuffix.name} (${bySuffix.identifier})` ? bySuffix : undefined);
    if (column && (!customOnly || column.kind === "custom")) {
      return column.kind === "builtin"
        ? { kind: "builtin", field: column.field as BuiltinField }
        : { kind: "custom", identifier: column.identifier };
    }
    return this.newColumn(field);
  }

  private mapped(field: string, to: string): Target {
    if (to === CUSTOM_CELLS_TARGET) return { kind: "cells" };
    if (to.startsWith("new:")) {
      const name = to.slice("new:".length).trim();
      const clash = this.byLowerName.get(name.toLowerCase());
      if (clash) {
        throw new DomainError(
          "conflict",
          `map asks for a new column "${name}" for "${field}", but the dataset has one (identifier "${clash.identifier}"); map the field to that identifier`,
          { field, identifier: clash.identifier },
        );
      }
      return this.newColumn(name);
    }
    if (isBuiltinField(to)) return this.builtinTarget(to, field);
    const found = this.byIdentifier.get(to);
    const column = found?.kind === "custom" ? found : undefined;
    if (!column && this.removed.has(to)) throw removedColumn(to, field);
    if (!column)
      throw unknownColumn(to, `is not an active column of the dataset (map sends "${field}" to it)`);
    return { kind: "custom", identifier: column.identifier };
  }

  private builtinTarget(field: BuiltinField, from: string): Target {
    if (this.byIdentifier.get(field)?.kind !== "builtin") {
      throw removedColumn(field, from);
    }
    return { kind: "builtin", field };
  }

  private newColumn(name: string): Target {
    const trimmed = name.trim();
    if (trimmed === "" || trimmed.length > 200) {
      throw new DomainError(
        "validation_failed",
        `The field "${name.slice(0, 60)}" cannot name a column: a name has 1-200 characters`,
        {
          field: name,
        },
      );
    }
    const key = trimmed.toLowerCase();
    let column = this.created.get(key);
    if (!column) {
      if (this.customCount + this.created.size >= MAX_CUSTOM_COLUMNS)
        throw tooManyColumns(this.customCount, this.created.size + 1);
      column = { identifier: newId(), name: trimmed };
      this.created.set(key, column);
    }
    return { kind: "custom", identifier: column.identifier };
  }

  private rowIdOf(line: number, field: string, value: unknown): string {
    const text = typeof value === "number" && Number.isInteger(value) ? String(value) : value;
    if (typeof text !== "string" || !ROW_ID_PATTERN.test(text)) {
      throw badLine(
        line,
        `the row id in "${field}" must be 1-128 letters, digits, '_', '.', '~' or '-'; got ${JSON.stringify(value)?.slice(0, 60)}`,
        { field },
      );
    }
    return text;
  }
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const tooManyColumns = (has: number, adds: number) =>
  new DomainError(
    "too_many_columns",
    `The file would add ${adds === 1 ? "a column" : `at least ${adds} columns`} to the dataset's ${has} custom columns, and a dataset has at most ${MAX_CUSTOM_COLUMNS}; remove columns you no longer need, or import only some fields with map`,
    { limit: MAX_CUSTOM_COLUMNS, columns: has, adding: adds },
  );

const removedColumn = (identifier: string, field: string) =>
  unknownColumn(
    identifier,
    `was removed, so the field "${field}" has nowhere to go; restore the column or map the field elsewhere`,
  );

const unknownColumn = (identifier: string, why: string) =>
  new DomainError("unknown_column", `Unknown or removed column "${identifier}": it ${why}`, {
    column: identifier,
  });
