import type { Actor, Cell } from "@svc/contracts";
import { prepared, unnestRows } from "@svc/db";
import { sql } from "kysely";
import type { DatasetRef, Db } from "./datasets";

/**
 * Set-based statements for a batch of row edits. Each takes the whole batch as array parameters
 * (expanded with unnest, see `unnestRows`), so a batch costs the same few round trips whatever its
 * size, and each of its joins looks its keys up by index.
 */

type LockedColumn = { identifier: string; kind: "builtin" | "custom"; removed: boolean };

export interface LockedDataset {
  datasetId: string;
  version: number;
  ref: DatasetRef;
  columns: LockedColumn[];
  /**
   * The current version of each row asked for; a row that does not exist is absent. A batch moves
   * it on as it assigns each edit its version.
   */
  rowVersions: Map<string, number>;
}

/**
 * Locks the batch's datasets, in id order so that concurrent batches on other replicas can never
 * deadlock, and reads each one's version, its columns, and the versions of the rows `rowIdsOf`
 * names. The locks serialise the batch with every other writer of those datasets until the
 * transaction ends.
 *
 * One statement does it all, in one round trip. Under READ COMMITTED, though, a `SELECT … FOR
 * UPDATE` that waited for a lock re-reads only the rows it locks: the columns and rows it reads
 * beside them keep the snapshot taken before the wait, and would miss a column removal that
 * committed meanwhile. Every change to a dataset's columns or rows updates the dataset's row (its
 * version, at least), so the statement also compares the row in its snapshot with the row it locked
 * (their `xmin`, the transaction that wrote each): where they differ, something committed during the
 * wait, and the statement runs again. Holding every lock by then, it waits for none, and its
 * snapshot is taken with the locks held.
 */
export async function lockDatasets(
  db: Db,
  refs: readonly DatasetRef[],
  rowIdsOf: (ref: DatasetRef) => readonly string[],
): Promise<LockedDataset[]> {
  const rowKeys = refs.flatMap((ref) => rowIdsOf(ref).map((rowId) => ({ ...ref, rowId })));
  const lockAndRead = () =>
    sql<{
      part: number;
      dataset_id: string;
      version: number | null;
      changed_during_wait: boolean | null;
      organization_id: string | null;
      project_slug: string | null;
      dataset_slug: string | null;
      identifier: string | null;
      kind: "builtin" | "custom" | null;
      removed: boolean | null;
      row_id: string | null;
    }>`${prepared}
    WITH locked AS (
      SELECT d.id, d.current_version, d.xmin::text AS row_version, p.organization_id,
             p.slug AS project_slug, d.slug AS dataset_slug
      FROM datasets d
      JOIN projects p ON p.id = d.project_id
      JOIN ${unnestRows("r", { organizationId: "text", projectSlug: "text", datasetSlug: "text" }, refs)}
        ON p.organization_id = r."organizationId" AND p.slug = r."projectSlug" AND d.slug = r."datasetSlug"
      ORDER BY d.id
      FOR UPDATE OF d
    )
    SELECT * FROM (
      SELECT 0 AS part, l.id AS dataset_id, l.current_version AS version,
             s.xmin::text <> l.row_version AS changed_during_wait,
             l.organization_id, l.project_slug, l.dataset_slug,
             NULL::text AS identifier, NULL::text AS kind, NULL::boolean AS removed, NULL::text AS row_id,
             NULL::int AS position
      FROM locked l JOIN datasets s ON s.id = l.id
      UNION ALL
      SELECT 1, c.dataset_id, NULL, NULL, NULL, NULL, NULL,
             c.identifier, c.kind, c.removed_at IS NOT NULL, NULL, c.position
      FROM dataset_columns c WHERE c.dataset_id IN (SELECT id FROM locked)
      UNION ALL
      SELECT 2, r.dataset_id, r.version, NULL, NULL, NULL, NULL, NULL, NULL, NULL, r.row_id, NULL
      FROM locked l
      JOIN ${unnestRows("k", { organizationId: "text", projectSlug: "text", datasetSlug: "text", rowId: "text" }, rowKeys)}
        ON k."organizationId" = l.organization_id AND k."projectSlug" = l.project_slug AND k."datasetSlug" = l.dataset_slug
      JOIN dataset_rows r ON r.dataset_id = l.id AND r.row_id = k."rowId"
    ) AS state
    ORDER BY part, dataset_id, position, identifier`.execute(db);
  let { rows } = await lockAndRead();
  if (rows.some((row) => row.changed_during_wait)) ({ rows } = await lockAndRead());

  const byId = new Map<string, LockedDataset>();
  for (const row of rows) {
    if (row.part === 0) {
      byId.set(row.dataset_id, {
        datasetId: row.dataset_id,
        version: row.version as number,
        ref: {
          organizationId: row.organization_id as string,
          projectSlug: row.project_slug as string,
          datasetSlug: row.dataset_slug as string,
        },
        columns: [],
        rowVersions: new Map(),
      });
      continue;
    }
    const dataset = byId.get(row.dataset_id) as LockedDataset;
    if (row.part === 2) dataset.rowVersions.set(row.row_id as string, row.version as number);
    else {
      dataset.columns.push({
        identifier: row.identifier as string,
        kind: row.kind as "builtin" | "custom",
        removed: row.removed === true,
      });
    }
  }
  return [...byId.values()];
}

export const rowKey = (datasetId: string, rowId: string) => `${datasetId}\u0000${rowId}`;

/**
 * One edit of a batch, with the patch it makes *cumulated* with the batch's earlier edits of the same
 * row: applied to the row as it was before the batch, it gives the row as this edit leaves it.
 */
export interface EditWrite {
  datasetId: string;
  rowId: string;
  version: number;
  /** The version of the batch's next edit of the same row, or null when this one stays live. */
  versionTo: number | null;
  /** The row's first edit in the batch ends its live revision; its last one sets the current cells. */
  isFirst: boolean;
  isLast: boolean;
  input?: Cell | undefined;
  output?: Cell | undefined;
  expectedOutput?: Cell | undefined;
  metadata?: Cell | undefined;
  custom: Record<string, Cell>;
  versionId: string;
  actor: Actor;
}

/**
 * Writes a whole batch of edits in one statement: the rows' current cells (custom merged with `||`
 * in SQL), the end of their live revisions, a revision per edit, a version record per edit, and each
 * dataset's current version. Every part reads the rows as they were before the statement, which is
 * why the patches are cumulative; the one-live-revision constraint is checked at commit.
 */
const editColumns = {
  datasetId: "text",
  rowId: "text",
  version: "int",
  versionTo: "int",
  isFirst: "boolean",
  isLast: "boolean",
  hasInput: "boolean",
  input: "jsonb",
  hasOutput: "boolean",
  output: "jsonb",
  hasExpected: "boolean",
  expected: "jsonb",
  hasMetadata: "boolean",
  metadata: "jsonb",
  custom: "jsonb",
  versionId: "text",
  actorKind: "text",
  actorId: "text",
} as const;

export async function writeEdits(db: Db, edits: readonly EditWrite[]): Promise<void> {
  if (edits.length === 0) return;
  const payload = edits.map((e) => ({
    datasetId: e.datasetId,
    rowId: e.rowId,
    version: e.version,
    versionTo: e.versionTo,
    isFirst: e.isFirst,
    isLast: e.isLast,
    hasInput: "input" in e,
    input: e.input,
    hasOutput: "output" in e,
    output: e.output,
    hasExpected: "expectedOutput" in e,
    expected: e.expectedOutput,
    hasMetadata: "metadata" in e,
    metadata: e.metadata,
    custom: e.custom,
    versionId: e.versionId,
    actorKind: e.actor.kind,
    actorId: e.actor.id,
  }));
  await sql`${prepared}
    WITH e AS (SELECT * FROM ${unnestRows("e", editColumns, payload)}),
    base AS (
      SELECT r.* FROM dataset_rows r JOIN e ON e."isFirst" AND r.dataset_id = e."datasetId" AND r.row_id = e."rowId"
    ),
    current_cells AS (
      UPDATE dataset_rows r SET
        input = CASE WHEN e."hasInput" THEN e.input ELSE r.input END,
        output = CASE WHEN e."hasOutput" THEN e.output ELSE r.output END,
        expected_output = CASE WHEN e."hasExpected" THEN e.expected ELSE r.expected_output END,
        metadata = CASE WHEN e."hasMetadata" THEN e.metadata ELSE r.metadata END,
        custom = r.custom || e.custom,
        version = e.version
      FROM e WHERE e."isLast" AND r.dataset_id = e."datasetId" AND r.row_id = e."rowId"
    ),
    ended AS (
      UPDATE row_revisions v SET version_to = e.version
      FROM e WHERE e."isFirst" AND v.dataset_id = e."datasetId" AND v.row_id = e."rowId" AND v.version_to IS NULL
    ),
    revisions AS (
      INSERT INTO row_revisions
        (dataset_id, row_id, version_from, version_to, deleted, input, output, expected_output, metadata, custom, created_at)
      SELECT e."datasetId", e."rowId", e.version, e."versionTo", false,
             CASE WHEN e."hasInput" THEN e.input ELSE b.input END,
             CASE WHEN e."hasOutput" THEN e.output ELSE b.output END,
             CASE WHEN e."hasExpected" THEN e.expected ELSE b.expected_output END,
             CASE WHEN e."hasMetadata" THEN e.metadata ELSE b.metadata END,
             b.custom || e.custom, b.created_at
      FROM e JOIN base b ON b.dataset_id = e."datasetId" AND b.row_id = e."rowId"
    ),
    versions AS (
      INSERT INTO dataset_versions
        (id, dataset_id, version, operation, rows_inserted, rows_updated, rows_deleted, actor_kind, actor_id)
      SELECT e."versionId", e."datasetId", e.version, 'update', 0, 1, 0, e."actorKind", e."actorId" FROM e
    )
    UPDATE datasets d SET current_version = m.version, updated_at = now()
    FROM (SELECT "datasetId", max(version) AS version FROM e GROUP BY "datasetId") m
    WHERE d.id = m."datasetId"`.execute(db);
}
