import type { BuiltinField } from "@svc/contracts";
import { type CellPresence, type CellSearch, type Database, matchesPresence, matchesSearch } from "@svc/db";
import { type Kysely, sql } from "kysely";
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
      WHERE r.dataset_id = ${source.datasetId} AND r.row_id = id AND NOT r.deleted
        AND r.version_from <= ${source.version} AND (r.version_to IS NULL OR r.version_to > ${source.version})
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
  const { rows } = await sql<{ row_id: string; total: number }>`
    WITH s AS (
      SELECT r.row_id, r.input, r.output, r.expected_output, r.metadata, r.custom, r.created_at,
             replace(gen_random_uuid()::text, '-', '') AS new_id,
             row_number() OVER (ORDER BY r.created_at, r.row_id) AS n
      FROM row_revisions r
      WHERE r.dataset_id = ${source.datasetId} AND NOT r.deleted
        AND r.version_from <= ${source.version} AND (r.version_to IS NULL OR r.version_to > ${source.version})
        AND ${selectionFilter(request.selection)}
        AND ${matchesSearch(request.search)}
        AND ${matchesPresence(request.presence)}
    ),
    copies AS (
      SELECT s.n, s.new_id AS row_id,
             coalesce(${cell("input", "input")}, 'null'::jsonb) AS input,
             coalesce(${cell("output", "output")}, 'null'::jsonb) AS output,
             coalesce(${cell("expectedOutput", "expected_output")}, 'null'::jsonb) AS expected_output,
             CASE
               WHEN jsonb_typeof(${cell("metadata", "metadata")}) = 'object'
                 THEN ${cell("metadata", "metadata")} || jsonb_build_object('copiedFrom', ${provenance}::jsonb || jsonb_build_object('rowId', s.row_id))
               WHEN ${cell("metadata", "metadata")} IS NULL OR ${cell("metadata", "metadata")} = 'null'::jsonb
                 THEN jsonb_build_object('copiedFrom', ${provenance}::jsonb || jsonb_build_object('rowId', s.row_id))
               ELSE jsonb_build_object('value', ${cell("metadata", "metadata")}, 'copiedFrom', ${provenance}::jsonb || jsonb_build_object('rowId', s.row_id))
             END AS metadata,
             coalesce((
               SELECT jsonb_object_agg(${JSON.stringify(request.customMap)}::jsonb ->> e.key, e.value)
               FROM jsonb_each(s.custom) AS e
               WHERE ${JSON.stringify(request.customMap)}::jsonb ? e.key
             ), '{}'::jsonb) AS custom,
             now() + s.n * interval '1 microsecond' AS created_at
      FROM s
    ),
    live AS (
      INSERT INTO dataset_rows (dataset_id, row_id, input, output, expected_output, metadata, custom, created_at, version)
      SELECT ${target.datasetId}, c.row_id, c.input, c.output, c.expected_output, c.metadata, c.custom, c.created_at, ${target.version}
      FROM copies c
    ),
    revisions AS (
      INSERT INTO row_revisions
        (dataset_id, row_id, version_from, deleted, input, output, expected_output, metadata, custom, created_at)
      SELECT ${target.datasetId}, c.row_id, ${target.version}, false, c.input, c.output, c.expected_output, c.metadata, c.custom, c.created_at
      FROM copies c
    )
    SELECT c.row_id, count(*) OVER ()::int AS total FROM copies c ORDER BY c.n LIMIT ${request.idLimit}`.execute(
    db,
  );
  return { count: rows[0]?.total ?? 0, rowIds: rows.map((row) => row.row_id) };
}
