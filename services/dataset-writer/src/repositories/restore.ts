import {
  cellList,
  cellsOf,
  cellsSet,
  closeRevisions,
  type Database,
  insertLiveRows,
  insertRevisions,
  sourceRow,
  validAt,
} from "@svc/db";
import { type Kysely, sql } from "kysely";
import { deleteRowsWithTombstones } from "./rows";

/**
 * The rows touched after version V and their state at V (live revisions only). Everything a restore
 * does is confined to these rows, so its cost is what changed since V, not the dataset's size.
 */
function stateAt(datasetId: string, version: number) {
  return sql`
    changed AS (
      SELECT DISTINCT row_id FROM row_revisions WHERE dataset_id = ${datasetId} AND version_from > ${version}
    ),
    at_v AS (
      SELECT r.row_id, ${cellList(cellsOf("r"))}, r.created_at
      FROM row_revisions r JOIN changed c ON c.row_id = r.row_id
      WHERE r.dataset_id = ${datasetId} AND ${validAt("r", version)}
    )`;
}

/** Starts live revisions, at `version`, for the given rows as they now are in dataset_rows. */
async function reviseFromLive(
  db: Kysely<Database>,
  datasetId: string,
  rowIds: readonly string[],
  version: number,
) {
  if (rowIds.length === 0) return;
  await closeRevisions(db, datasetId, rowIds, version);
  await sql`
    ${insertRevisions({ datasetId: sql`dataset_id`, version, row: sourceRow(), from: sql`dataset_rows` })}
    WHERE dataset_id = ${datasetId} AND row_id = ANY(${[...rowIds]}::text[])`.execute(db);
}

/**
 * Makes the live rows equal to version `target` (restoreDatasetVersion), writing revisions at
 * `version` only for rows that differ: rows added since are deleted, rows deleted since come back
 * with their old creation time, rows changed since get their old cells back.
 */
export async function restoreRows(db: Kysely<Database>, datasetId: string, target: number, version: number) {
  const gone = await sql<{ row_id: string }>`
    WITH ${stateAt(datasetId, target)}
    SELECT row_id FROM dataset_rows
    WHERE dataset_id = ${datasetId}
      AND row_id IN (SELECT row_id FROM changed)
      AND row_id NOT IN (SELECT row_id FROM at_v)`.execute(db);
  const deleted =
    gone.rows.length === 0
      ? 0
      : await deleteRowsWithTombstones(
          db,
          datasetId,
          { mode: "selected", rowIds: gone.rows.map((r) => r.row_id) },
          version,
        );

  const updated = await sql<{ row_id: string }>`
    WITH ${stateAt(datasetId, target)}
    UPDATE dataset_rows d
    SET ${cellsSet(cellsOf("a"))}, version = ${version}
    FROM at_v a
    WHERE d.dataset_id = ${datasetId} AND d.row_id = a.row_id
      AND (${cellList(cellsOf("d"))}) IS DISTINCT FROM (${cellList(cellsOf("a"))})
    RETURNING d.row_id`.execute(db);
  await reviseFromLive(
    db,
    datasetId,
    updated.rows.map((r) => r.row_id),
    version,
  );

  const inserted = await sql<{ row_id: string }>`
    WITH ${stateAt(datasetId, target)}
    ${insertLiveRows({ datasetId, version, row: sourceRow("a"), from: sql`at_v a` })}
    WHERE NOT EXISTS (SELECT 1 FROM dataset_rows x WHERE x.dataset_id = ${datasetId} AND x.row_id = a.row_id)
    RETURNING row_id`.execute(db);
  await reviseFromLive(
    db,
    datasetId,
    inserted.rows.map((r) => r.row_id),
    version,
  );

  return { rowsDeleted: deleted, rowsUpdated: updated.rows.length, rowsInserted: inserted.rows.length };
}

export async function findOptionalVersionId(
  db: Kysely<Database>,
  datasetId: string,
  version: number,
): Promise<string | undefined> {
  const row = await db
    .selectFrom("dataset_versions")
    .select("id")
    .where("dataset_id", "=", datasetId)
    .where("version", "=", version)
    .executeTakeFirst();
  return row?.id;
}
