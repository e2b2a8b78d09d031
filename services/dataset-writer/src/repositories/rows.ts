import type { Actor, VersionOperation } from "@svc/contracts";
import {
  cellList,
  cellsOf,
  cellValues,
  type Database,
  endLiveRevisions,
  insertRevisions,
  type RowCells,
  sourceRow,
} from "@svc/db";
import { type Kysely, sql } from "kysely";

export interface NewRowRecord extends RowCells {
  rowId: string;
  createdAt: Date;
}

export async function listExistingRowIds(
  db: Kysely<Database>,
  datasetId: string,
  rowIds: readonly string[],
): Promise<string[]> {
  if (rowIds.length === 0) return [];
  const rows = await db
    .selectFrom("dataset_rows")
    .select("row_id")
    .where("dataset_id", "=", datasetId)
    .where("row_id", "in", rowIds)
    .execute();
  return rows.map((row) => row.row_id);
}

/** Inserts new rows with their first revision. */
export async function insertRows(
  db: Kysely<Database>,
  datasetId: string,
  version: number,
  rows: readonly NewRowRecord[],
) {
  const values = rows.map((row) => ({
    dataset_id: datasetId,
    row_id: row.rowId,
    ...cellValues(row),
    created_at: row.createdAt,
  }));
  // PostgreSQL takes at most 65535 parameters in one statement: 8 a row leaves room for 1000 rows.
  await db
    .insertInto("dataset_rows")
    .values(values.map((v) => ({ ...v, version })))
    .execute();
  await db
    .insertInto("row_revisions")
    .values(values.map((v) => ({ ...v, version_from: version, deleted: false })))
    .execute();
}

export type DeleteSelection =
  | { mode: "selected"; rowIds: readonly string[] }
  | { mode: "allExcept"; rowIds: readonly string[] }
  | { mode: "all" };

export function selectionFilter(selection: DeleteSelection) {
  if (selection.mode === "selected") return sql`row_id = ANY(${[...selection.rowIds]}::text[])`;
  if (selection.mode === "allExcept" && selection.rowIds.length > 0) {
    return sql`NOT (row_id = ANY(${[...selection.rowIds]}::text[]))`;
  }
  return sql`true`;
}

/**
 * Deletes the selected live rows at `version`: their live revisions end, and a tombstone carrying
 * their last cells starts, all inside the database (a selection of a million rows sends no ids).
 * Returns how many rows were deleted.
 */
export async function deleteRowsWithTombstones(
  db: Kysely<Database>,
  datasetId: string,
  selection: DeleteSelection,
  version: number,
): Promise<number> {
  const filter = selectionFilter(selection);
  await endLiveRevisions(version, {
    where: sql`v.dataset_id = ${datasetId} AND NOT v.deleted AND ${filter}`,
  }).execute(db);
  const result = await sql<{ count: number }>`
    WITH gone AS (
      DELETE FROM dataset_rows WHERE dataset_id = ${datasetId} AND ${filter}
      RETURNING row_id, ${cellList(cellsOf())}, created_at
    ), tombstones AS (
      ${insertRevisions({ datasetId, version, deleted: true, row: sourceRow(), from: sql`gone` })}
      RETURNING 1
    )
    SELECT count(*)::int AS count FROM tombstones`.execute(db);
  return result.rows[0]?.count ?? 0;
}

export async function insertVersion(
  db: Kysely<Database>,
  values: {
    id: string;
    datasetId: string;
    version: number;
    operation: VersionOperation;
    rowsInserted?: number;
    rowsUpdated?: number;
    rowsDeleted?: number;
    /** Rows the dataset has at this version. */
    rowCount: number;
    actor: Actor;
  },
): Promise<void> {
  await db
    .insertInto("dataset_versions")
    .values({
      id: values.id,
      dataset_id: values.datasetId,
      version: values.version,
      operation: values.operation,
      rows_inserted: values.rowsInserted ?? 0,
      rows_updated: values.rowsUpdated ?? 0,
      rows_deleted: values.rowsDeleted ?? 0,
      row_count: values.rowCount,
      actor_kind: values.actor.kind,
      actor_id: values.actor.id,
    })
    .execute();
}
