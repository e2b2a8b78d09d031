import {
  cellList,
  cellsOf,
  type Database,
  isValidAt,
  type RowCells,
  rowCellsOf,
  type StoredCells,
} from "@svc/db";
import { type Kysely, sql } from "kysely";

export interface RowDiffRecord {
  rowId: string;
  before: RowCells | null;
  after: RowCells | null;
}

interface StateColumns extends StoredCells {
  deleted: boolean | null;
  version_to: number | null;
}

/**
 * The rows with a revision starting in (from, to], ordered by row id, each with its state at both
 * ends. It reads only the revisions in that range (the (dataset_id, version_from) index) plus one
 * lookup per row and end, so it costs what changed, not the history before or after.
 */
export async function listChangedRows(
  db: Kysely<Database>,
  query: { datasetId: string; from: number; to: number; afterRowId: string | undefined; limit: number },
): Promise<RowDiffRecord[]> {
  const state = (alias: string, version: number) => sql`
    LEFT JOIN LATERAL (
      SELECT ${cellList(cellsOf())}, deleted, version_to
      FROM row_revisions s
      WHERE s.dataset_id = ${query.datasetId} AND s.row_id = c.row_id AND s.version_from <= ${version}
      ORDER BY s.version_from DESC LIMIT 1
    ) ${sql.raw(alias)} ON true`;
  const result = await sql<{ row_id: string; b: StateColumns | null; a: StateColumns | null }>`
    WITH changed AS (
      SELECT DISTINCT row_id FROM row_revisions
      WHERE dataset_id = ${query.datasetId} AND version_from > ${query.from} AND version_from <= ${query.to}
        AND (${query.afterRowId ?? null}::text IS NULL OR row_id > ${query.afterRowId ?? null}::text)
      ORDER BY row_id
      LIMIT ${query.limit}
    )
    SELECT c.row_id, to_jsonb(b) AS b, to_jsonb(a) AS a
    FROM changed c ${state("b", query.from)} ${state("a", query.to)}
    ORDER BY c.row_id`.execute(db);
  return result.rows.map((row) => ({
    rowId: row.row_id,
    before: cellsAt(row.b, query.from),
    after: cellsAt(row.a, query.to),
  }));
}

/** The row's cells at a version: none when no revision had started by then (`deleted` is null). */
function cellsAt(state: StateColumns | null, version: number): RowCells | null {
  if (!state || state.deleted === null) return null;
  return isValidAt({ deleted: state.deleted, version_to: state.version_to }, version)
    ? rowCellsOf(state)
    : null;
}
