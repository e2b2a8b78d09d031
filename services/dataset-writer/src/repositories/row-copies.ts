import type { BuiltinField } from "@svc/contracts";
import {
  type CellPresence,
  type CellSearch,
  cellList,
  cellsAs,
  cellsFrom,
  cellsOf,
  type Database,
  insertLiveRows,
  insertRevisions,
  matchesPresence,
  matchesSearch,
  sourceRow,
  validAt,
} from "@svc/db";
import { type Kysely, type RawBuilder, sql } from "kysely";
import { type DeleteSelection, selectionFilter } from "./rows";

export interface CopyRequest {
  source: { datasetId: string; version: number; provenance: Record<string, string | number> };
  selection: DeleteSelection;
  search: CellSearch | undefined;
  presence: CellPresence | undefined;
  /** The source's active built-in fields: the others are copied as null. */
  fields: readonly BuiltinField[];
  /** Source custom identifier to target identifier; custom cells of other columns are left out. */
  customMap: Record<string, string>;
  target: { datasetId: string; version: number };
  /** How many of the copies' ids to return, in the source's order. */
  idLimit: number;
}

/** The selected ids that are not rows of the source at its version. */
export async function listMissingRowIds(
  db: Kysely<Database>,
  source: CopyRequest["source"],
  rowIds: readonly string[],
): Promise<string[]> {
  const { rows } = await sql<{ row_id: string }>`
    SELECT id AS row_id FROM unnest(${[...rowIds]}::text[]) AS id
    WHERE NOT EXISTS (
      SELECT FROM row_revisions r
      WHERE r.dataset_id = ${source.datasetId} AND r.row_id = id AND ${validAt("r", source.version)}
    )`.execute(db);
  return rows.map((row) => row.row_id);
}

/**
 * Copies the selected rows of the source (copyDatasetRows), as they were at its version, into the
 * target at the target's version, in one statement: new ids, the source's order kept (creation
 * times a microsecond apart), custom cells moved to the target's identifiers, and the provenance
 * written into metadata.
 */
export async function copyRows(
  db: Kysely<Database>,
  request: CopyRequest,
): Promise<{ count: number; rowIds: string[] }> {
  const { source, target } = request;
  const cell = (field: BuiltinField, column: string) =>
    request.fields.includes(field) ? sql.ref(`s.${column}`) : sql`'null'::jsonb`;
  const provenance = JSON.stringify(source.provenance);
  const customMap = JSON.stringify(request.customMap);
  const copied = cellsFrom(
    (field, column) =>
      field === "metadata"
        ? withProvenance(cell(field, column), provenance)
        : sql`coalesce(${cell(field, column)}, 'null'::jsonb)`,
    sql`coalesce((
      SELECT jsonb_object_agg(${customMap}::jsonb ->> e.key, e.value)
      FROM jsonb_each(s.custom) AS e
      WHERE ${customMap}::jsonb ? e.key
    ), '{}'::jsonb)`,
  );
  const { rows } = await sql<{ row_id: string; total: number }>`
    WITH s AS (
      SELECT r.row_id, ${cellList(cellsOf("r"))}, r.created_at,
             replace(gen_random_uuid()::text, '-', '') AS new_id,
             row_number() OVER (ORDER BY r.created_at, r.row_id) AS n
      FROM row_revisions r
      WHERE r.dataset_id = ${source.datasetId} AND ${validAt("r", source.version)}
        AND ${selectionFilter(request.selection)}
        AND ${matchesSearch(request.search)}
        AND ${matchesPresence(request.presence)}
    ),
    copies AS (
      SELECT s.n, s.new_id AS row_id, ${cellsAs(copied)},
             now() + s.n * interval '1 microsecond' AS created_at
      FROM s
    ),
    live AS (
      ${insertLiveRows({ ...target, row: sourceRow("c"), from: sql`copies c` })}
    ),
    revisions AS (
      ${insertRevisions({ ...target, row: sourceRow("c"), from: sql`copies c` })}
    )
    SELECT c.row_id, count(*) OVER ()::int AS total FROM copies c ORDER BY c.n LIMIT ${request.idLimit}`.execute(
    db,
  );
  return { count: rows[0]?.total ?? 0, rowIds: rows.map((row) => row.row_id) };
}

/** A copy's metadata: the source's, with where the copy came from (`copiedFrom`) added to it. */
function withProvenance(metadata: RawBuilder<unknown>, provenance: string): RawBuilder<unknown> {
  const copiedFrom = sql`${provenance}::jsonb || jsonb_build_object('rowId', s.row_id)`;
  return sql`CASE
    WHEN jsonb_typeof(${metadata}) = 'object' THEN ${metadata} || jsonb_build_object('copiedFrom', ${copiedFrom})
    WHEN ${metadata} IS NULL OR ${metadata} = 'null'::jsonb THEN jsonb_build_object('copiedFrom', ${copiedFrom})
    ELSE jsonb_build_object('value', ${metadata}, 'copiedFrom', ${copiedFrom})
  END`;
}
