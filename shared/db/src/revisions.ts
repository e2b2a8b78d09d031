import { type BuiltinField, builtinFields, type Cell } from "@svc/contracts";
import { type Kysely, type RawBuilder, type SqlBool, sql } from "kysely";
import { jsonb } from "./json";
import type { RowCells } from "./row-cells";
import type { Database } from "./schema";

/*
 * The storage rules of versioned rows (docs/decisions/0001-versioned-rows.md), written once as SQL
 * pieces that the repositories compose into their statements: which columns hold a row's cells, what
 * ends a row's live revision, how a revision or a live row is written from a source, and which
 * revisions make a dataset at a version. A new built-in cell is one entry in `storedColumnOf`; every
 * statement built from these pieces then reads, writes, copies and compares it (the SQL snapshots,
 * `sql/*.sql` beside each repository, show the composed statements).
 */

/**
 * The column of each built-in cell. The cells are defined once, in `builtinFields` (@svc/contracts);
 * cell-rules.test.ts checks the tables against the two.
 */
export const storedColumnOf = {
  input: "input",
  output: "output",
  expectedOutput: "expected_output",
  metadata: "metadata",
} as const satisfies Record<BuiltinField, string>;

type BuiltinColumn = (typeof storedColumnOf)[BuiltinField];
export type CellColumn = BuiltinColumn | "custom";

const fieldOf = Object.fromEntries(builtinFields.map((field) => [storedColumnOf[field], field])) as Record<
  BuiltinColumn,
  BuiltinField
>;

/** A row's cell columns, in the order every statement lists them: the built-in cells, then `custom`. */
export const cellColumns: readonly CellColumn[] = [
  ...builtinFields.map((field) => storedColumnOf[field]),
  "custom",
];

/** An SQL expression for each cell column of a row: what a statement reads, writes or compares. */
export type Cells = Record<CellColumn, RawBuilder<unknown>>;

const column = (alias: string | undefined, name: string) => sql.raw(alias ? `${alias}.${name}` : name);

/** The cells of the table aliased `alias` (`r.input`, …), or of the one table in scope. */
export function cellsOf(alias?: string): Cells {
  return byColumn((name) => column(alias, name));
}

/** An object keyed by cell column, in column order, a column at a time. */
function byColumn<T>(value: (name: CellColumn) => T): Record<CellColumn, T> {
  return Object.fromEntries(cellColumns.map((name) => [name, value(name)])) as Record<CellColumn, T>;
}

/**
 * The cells from per-field expressions: `builtin` gives each built-in cell (by its field and its
 * column), `custom` the custom cells' object.
 */
export function cellsFrom(
  builtin: (field: BuiltinField, column: BuiltinColumn) => RawBuilder<unknown>,
  custom: RawBuilder<unknown>,
): Cells {
  return byColumn((name) => (name === "custom" ? custom : builtin(fieldOf[name], name)));
}

/**
 * The cells of the row aliased `base` as a patch leaves them: a built-in cell that `builtins` (a
 * jsonb object keyed by field) holds replaces the row's, JSON null included; the custom cells of
 * `custom` merge into the row's by identifier.
 */
export function patchedCells(
  base: string,
  patch: { builtins: RawBuilder<unknown>; custom: RawBuilder<unknown> },
) {
  const { builtins, custom } = patch;
  return cellsFrom(
    (field, name) =>
      sql`CASE WHEN ${builtins} ? ${sql.lit(field)} THEN ${builtins} -> ${sql.lit(field)} ELSE ${column(base, name)} END`,
    sql`${column(base, "custom")} || ${custom}`,
  );
}

/** `input, output, …`: the cells in order, for a SELECT list, a RETURNING or a row value. */
export const cellList = (cells: Cells) => sql.join(cellColumns.map((name) => cells[name]));

/** `… AS input, … AS output, …`: the cells as a SELECT list that names them. */
export const cellsAs = (cells: Cells) =>
  sql.join(cellColumns.map((name) => sql`${cells[name]} AS ${sql.raw(name)}`));

/** `input = …, output = …, …`: the cells as the SET list of an UPDATE. */
export const cellsSet = (cells: Cells) =>
  sql.join(cellColumns.map((name) => sql`${sql.raw(name)} = ${cells[name]}`));

/** A row's cells as parameters, keyed by column: the values of an insert built with Kysely. */
export function cellValues(cells: RowCells): Record<CellColumn, RawBuilder<string>> {
  return byColumn((name) => jsonb(name === "custom" ? cells.custom : cells[fieldOf[name]]));
}

/** A row as a source gives it: its id, its cells and its creation time. */
export interface SourceRow {
  rowId: RawBuilder<unknown>;
  cells: Cells;
  createdAt: RawBuilder<unknown>;
}

/** The row of the source aliased `alias` (or of the one table in scope), in columns of the stored names. */
export function sourceRow(alias?: string): SourceRow {
  return { rowId: column(alias, "row_id"), cells: cellsOf(alias), createdAt: column(alias, "created_at") };
}

/** A value sent as a parameter, or an expression of the statement (`c.version`). */
type Value<T> = T | RawBuilder<T>;

/**
 * Ends live revisions at `version`: those of the revisions (aliased `v`) that `where` selects, with
 * the tables of `from` in scope. From then on each of those rows reads as it was until `version - 1`,
 * and a new revision (or none, for a deleted row) takes over.
 */
export function endLiveRevisions(
  version: Value<number>,
  rows: { from?: RawBuilder<unknown>; where: RawBuilder<unknown> },
): RawBuilder<unknown> {
  const from = rows.from === undefined ? sql`` : sql`FROM ${rows.from}`;
  return sql`UPDATE row_revisions v SET version_to = ${version} ${from} WHERE ${rows.where} AND v.version_to IS NULL`;
}

/** `endLiveRevisions` of the given rows, run on its own. */
export async function closeRevisions(
  db: Kysely<Database>,
  datasetId: string,
  rowIds: readonly string[],
  version: number,
): Promise<void> {
  if (rowIds.length === 0) return;
  await endLiveRevisions(version, {
    where: sql`v.dataset_id = ${datasetId} AND v.row_id = ANY(${[...rowIds]}::text[])`,
  }).execute(db);
}

/**
 * Starts a revision at `version` of each row the source (`from`) gives: live (valid until another
 * ends it, or until `versionTo` when given) or, with `deleted`, the tombstone a deletion leaves.
 */
export function insertRevisions(revisions: {
  datasetId: Value<string>;
  version: Value<number>;
  versionTo?: RawBuilder<number | null>;
  deleted?: boolean;
  row: SourceRow;
  from: RawBuilder<unknown>;
}): RawBuilder<unknown> {
  const { datasetId, version, versionTo, deleted = false, row, from } = revisions;
  const validity =
    versionTo === undefined
      ? { columns: sql`version_from, deleted`, values: sql`${version}, ${sql.lit(deleted)}` }
      : {
          columns: sql`version_from, version_to, deleted`,
          values: sql`${version}, ${versionTo}, ${sql.lit(deleted)}`,
        };
  return sql`
    INSERT INTO row_revisions
      (dataset_id, row_id, ${validity.columns}, ${cellList(cellsOf())}, created_at)
    SELECT ${datasetId}, ${row.rowId}, ${validity.values}, ${cellList(row.cells)}, ${row.createdAt}
    FROM ${from}`;
}

/** Writes each row the source (`from`) gives as a live row of the dataset, changed last at `version`. */
export function insertLiveRows(rows: {
  datasetId: Value<string>;
  version: Value<number>;
  row: SourceRow;
  from: RawBuilder<unknown>;
}): RawBuilder<unknown> {
  const { datasetId, version, row, from } = rows;
  return sql`
    INSERT INTO dataset_rows (dataset_id, row_id, ${cellList(cellsOf())}, created_at, version)
    SELECT ${datasetId}, ${row.rowId}, ${cellList(row.cells)}, ${row.createdAt}, ${version}
    FROM ${from}`;
}

/**
 * Whether the revision aliased `alias` is valid at `version`: it started by then, had not ended, and
 * is no tombstone. The revisions of a dataset valid at N are the dataset at version N: an index range
 * lookup whose cost grows with what it returns, not with later history.
 */
export function validAt(alias: string, version: number): RawBuilder<SqlBool> {
  const r = (name: string) => column(alias, name);
  return sql<SqlBool>`${r("version_from")} <= ${version} AND (${r("version_to")} IS NULL OR ${r("version_to")} > ${version}) AND NOT ${r("deleted")}`;
}

/**
 * The same rule for one revision already read: the latest revision of a row that started by
 * `version` makes the row at that version, unless it is a tombstone or had ended by then.
 */
export function isValidAt(
  revision: { deleted: boolean; version_to: number | null },
  version: number,
): boolean {
  return !revision.deleted && (revision.version_to === null || revision.version_to > version);
}

/**
 * The revisions valid at `version` (the rows as they were then, deleted ones left out), as `r`: what
 * "the dataset at version N" means, for every reader of a past version (the reader's lists and
 * exports, an experiment's pinned rows).
 */
export function revisionsAt(db: Kysely<Database>, datasetId: string, version: number) {
  return db
    .selectFrom("row_revisions as r")
    .where("r.dataset_id", "=", datasetId)
    .where(validAt("r", version));
}

/**
 * The live rows of a dataset whose current version is `version`, as `r`: what the dataset is now. A
 * live row changed last after it belongs to an import still writing the next version in pieces
 * (decision 0055), which nobody sees until its last step makes that version the current one.
 */
export function liveRowsAt(db: Kysely<Database>, datasetId: string, version: number) {
  return db
    .selectFrom("dataset_rows as r")
    .where("r.dataset_id", "=", datasetId)
    .where("r.version", "<=", version);
}

/** The cell columns of a row or revision as the driver reads them (jsonb parsed). */
export type StoredCells = Record<BuiltinColumn, unknown> & { custom: Record<string, unknown> | null };

/** The cell columns of the row aliased `r`, for a Kysely select. */
export const selectedCells = cellColumns.map((name) => `r.${name}` as const);

/** A row's cells from its stored columns; a cell never written (SQL NULL) reads as JSON null. */
export function rowCellsOf(stored: StoredCells): RowCells {
  const cells = {} as RowCells;
  for (const field of builtinFields) cells[field] = (stored[storedColumnOf[field]] ?? null) as Cell;
  cells.custom = (stored.custom ?? {}) as Record<string, Cell>;
  return cells;
}
