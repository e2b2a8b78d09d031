import type { BuiltinField } from "@svc/contracts";
import { type Database, storedColumnOf } from "@svc/db";
import { type Kysely, type RawBuilder, sql } from "kysely";
import { exactTimestamp } from "./db";
import { afterKey, type RowKey, revisionsAt } from "./rows";

/** Where an exported cell is stored: a built-in cell's column, or a custom column's key in `custom`. */
export type StoredCell = { kind: "builtin"; field: BuiltinField } | { kind: "custom"; identifier: string };

/**
 * A row of an export: its id and its cells' JSON as the database writes jsonb, `""` where unset, all
 * in one text, each cell after the first behind `CELL_SEPARATOR`.
 */
export interface ExportedRow {
  rowId: string;
  cells: string;
}

/**
 * Separates the cells of a row in one text column (E'\x1f' in the SQL). PostgreSQL escapes every
 * control character in the JSON it writes, so this one cannot occur inside a cell.
 */
export const CELL_SEPARATOR = "\u001f";

/**
 * A page of the rows valid at `version`, in creation order after `after`, with the cells asked for
 * as text, all of a row's cells in one column: the driver neither parses JSON nor builds an object
 * per cell, which is most of what reading a million rows would otherwise cost.
 */
export async function listExportedRows(
  db: Kysely<Database>,
  query: {
    datasetId: string;
    version: number;
    after: RowKey | undefined;
    limit: number;
    cells: readonly StoredCell[];
  },
): Promise<ExportedRow[]> {
  const cells =
    query.cells.length === 0
      ? sql<string>`''`
      : sql<string>`${sql.join(
          query.cells.map((cell) => sql`coalesce(${cellText(cell)}, '')`),
          sql` || E'\\x1f' || `,
        )}`;
  const rows = await revisionsAt(db, query.datasetId, query.version)
    .select(["r.row_id", cells.as("cells")])
    .$if(query.after !== undefined, (qb) => qb.where(afterKey({ after: query.after, direction: "asc" })))
    .orderBy("r.created_at")
    .orderBy("r.row_id")
    .limit(query.limit)
    .execute();
  return rows.map((row) => ({ rowId: row.row_id, cells: row.cells }));
}

function cellText(cell: StoredCell): RawBuilder<string> {
  return cell.kind === "builtin"
    ? sql<string>`${sql.ref(`r.${storedColumnOf[cell.field]}`)}::text`
    : sql<string>`(r.custom -> ${cell.identifier})::text`;
}

/** The page key of a row valid at `version`: where the next page starts. */
export async function findExportedRowKey(
  db: Kysely<Database>,
  query: { datasetId: string; version: number; rowId: string },
): Promise<RowKey> {
  const row = await db
    .selectFrom("row_revisions as r")
    .select(exactTimestamp("r.created_at").as("created_key"))
    .where("r.dataset_id", "=", query.datasetId)
    .where("r.row_id", "=", query.rowId)
    .where("r.version_from", "<=", query.version)
    .orderBy("r.version_from", "desc")
    .limit(1)
    .executeTakeFirstOrThrow();
  return { createdAt: row.created_key, rowId: query.rowId };
}
