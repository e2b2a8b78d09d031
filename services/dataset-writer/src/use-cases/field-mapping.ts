import {
  type BuiltinField,
  DomainError,
  findUnstorableInput,
  type ImportFormat,
  type ImportStart,
  isBuiltinField,
  newId,
  ROW_ID_PATTERN,
} from "@svc/contracts";
import type { Database } from "@svc/db";
import type { Kysely } from "kysely";
import type { FileRecord } from "../domain/file-records";
import { badLine } from "../domain/record-checks";
import { type ColumnRecord, insertCustomColumn, listColumns } from "../repositories/columns";
import type { StagedRow } from "../repositories/imports";

type Target =
  | { kind: "id" }
  | { kind: "builtin"; field: BuiltinField }
  | { kind: "custom"; identifier: string }
  | { kind: "skip" };

const BUILTIN_ALIASES: Record<string, BuiltinField> = {
  input: "input",
  output: "output",
  expectedOutput: "expectedOutput",
  expected_output: "expectedOutput",
  metadata: "metadata",
};

/**
 * Where each field of a file goes: the `map` of the import, or names (API.md). Columns the file asks
 * for are given identifiers when first met and created in the import's own transaction, so an import
 * that fails creates none.
 */
export class FieldMapping {
  private readonly targets = new Map<string, Target>();
  private readonly created = new Map<string, { identifier: string; name: string }>();
  private readonly active: ColumnRecord[];
  private readonly removed: ColumnRecord[];
  private readonly idFields: Set<string>;

  constructor(
    columns: readonly ColumnRecord[],
    private readonly query: ImportStart["query"],
    private readonly format: ImportFormat,
  ) {
    this.active = columns.filter((column) => !column.removed);
    this.removed = columns.filter((column) => column.removed);
    this.idFields = new Set(query.idField ? [query.idField] : format === "csv" ? ["id"] : ["id", "rowId"]);
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
      if (field === "custom" && this.query.map === undefined && this.format !== "csv" && isObject(value)) {
        for (const [key, cell] of Object.entries(value)) {
          const target = this.byName(key, true);
          if (target.kind === "custom") custom[target.identifier] = cell;
        }
        continue;
      }
      const target = this.targetOf(field);
      if (target.kind === "id") rowId = this.rowIdOf(line, field, text?.[field] ?? value);
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

  /** Creates the columns the file asked for; refuses a mapped column removed since the import began. */
  async createColumns(trx: Kysely<Database>, datasetId: string): Promise<void> {
    const now = await listColumns(trx, datasetId);
    for (const target of this.targets.values()) {
      if (
        target.kind !== "custom" ||
        [...this.created.values()].some((c) => c.identifier === target.identifier)
      )
        continue;
      if (!now.some((column) => column.identifier === target.identifier && !column.removed)) {
        throw unknownColumn(target.identifier, "was removed while the file was imported");
      }
    }
    for (const column of this.created.values()) {
      const clash = now.find((c) => !c.removed && c.name.toLowerCase() === column.name.toLowerCase());
      if (clash) {
        throw new DomainError(
          "conflict",
          `A column named "${column.name}" was added while the file was imported; import it again`,
          {
            name: column.name,
          },
        );
      }
      await insertCustomColumn(trx, { datasetId, identifier: column.identifier, name: column.name });
    }
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
    const builtin = BUILTIN_ALIASES[field];
    if (builtin && !customOnly) return this.builtinTarget(builtin, field);
    // An export heads a custom column named like a built-in field "name (identifier)".
    const suffixed = /\(([A-Za-z0-9_]{1,64})\)$/.exec(field)?.[1];
    const column =
      this.active.find((c) => c.identifier === field) ??
      this.active.find((c) => c.name.toLowerCase() === field.toLowerCase()) ??
      this.active.find((c) => c.identifier === suffixed && field === `${c.name} (${c.identifier})`);
    if (column && (!customOnly || column.kind === "custom")) {
      return column.kind === "builtin"
        ? { kind: "builtin", field: column.field as BuiltinField }
        : { kind: "custom", identifier: column.identifier };
    }
    return this.newColumn(field);
  }

  private mapped(field: string, to: string): Target {
    if (to.startsWith("new:")) {
      const name = to.slice("new:".length).trim();
      const clash = this.active.find((c) => c.name.toLowerCase() === name.toLowerCase());
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
    const column = this.active.find((c) => c.identifier === to && c.kind === "custom");
    if (!column && this.removed.some((c) => c.identifier === to)) throw removedColumn(to, field);
    if (!column)
      throw unknownColumn(to, `is not an active column of the dataset (map sends "${field}" to it)`);
    return { kind: "custom", identifier: column.identifier };
  }

  private builtinTarget(field: BuiltinField, from: string): Target {
    if (!this.active.some((column) => column.kind === "builtin" && column.field === field)) {
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

const removedColumn = (identifier: string, field: string) =>
  unknownColumn(
    identifier,
    `was removed, so the field "${field}" has nowhere to go; restore the column or map the field elsewhere`,
  );

const unknownColumn = (identifier: string, why: string) =>
  new DomainError("unknown_column", `Unknown or removed column "${identifier}": it ${why}`, {
    column: identifier,
  });
