import type { Actor, BuiltinField, Cell } from "@svc/contracts";
import {
  cellsSet,
  type Database,
  type DatasetRef,
  endLiveRevisions,
  insertRevisions,
  patchedCells,
  prepared,
  unnestRows,
} from "@svc/db";
import { type Kysely, sql } from "kysely";

/** One edit of a batch, as `applyEdits` takes it. */
export interface EditRequest {
  ref: DatasetRef;
  rowId: string;
  /** The row version the edit requires (If-Match); the batch must hold no earlier edit of the row. */
  ifMatch: number | undefined;
  builtins: Partial<Record<BuiltinField, Cell>>;
  custom: Record<string, Cell>;
  /** The id the edit's version gets if it is applied. */
  versionId: string;
  actor: Actor;
  /**
   * The edit's idempotency key (its organisation's, named in `ref`), stored with its answer by the
   * same statement when the edit is applied. A key stored before makes the whole statement fail with
   * a unique violation (see `isKeyTaken`), and change nothing.
   */
  idempotency?: { key: string; operationId: string; requestHash: string } | undefined;
}

/** What became of one edit; only `applied` ones changed anything. */
export type EditOutcome =
  | { status: "applied"; version: number; versionId: string }
  | { status: "dataset_not_found" }
  /** An import writes the dataset's next version in pieces: `importId`'s. */
  | { status: "taking_import"; importId: string }
  /** `rejected`: the keys of the edit that no active column of the right kind accepts. */
  | { status: "unknown_column"; rejected: string[] }
  | { status: "row_not_found" }
  | { status: "version_mismatch"; current: number };

/** The cells each edit sets, chained over the row's earlier edits of the batch (see `applyEdits`). */
const edited = { builtins: sql`c.cells`, custom: sql`c.custom` };

const requestColumns = {
  idx: "int",
  organizationId: "text",
  projectSlug: "text",
  datasetSlug: "text",
  rowId: "text",
  ifMatch: "int",
  builtins: "jsonb",
  custom: "jsonb",
  versionId: "text",
  actorKind: "text",
  actorId: "text",
  idempotencyKey: "text",
  operationId: "text",
  requestHash: "text",
} as const;

/**
 * Applies a batch of row edits (updateDatasetRow) in one statement, so that a batch costs one round
 * trip to the database (one transaction, too, when it runs outside one). The statement:
 *
 * 1. locks the batch's datasets, in id order so that concurrent batches never deadlock;
 * 2. judges each edit in arrival order against the dataset as locked: unknown dataset, a cell no
 *    active column accepts, a missing row, an If-Match that is not the row's version;
 * 3. numbers the accepted edits per dataset in arrival order, after the dataset's current version;
 * 4. chains each row's accepted edits (`jsonb_merge` over the row's edits so far gives each one the
 *    patch that, applied to the row as it was before the batch, leaves the row as that edit does);
 * 5. writes the rows' current cells, ends their live revisions, adds a revision and a version record
 *    per edit, and moves each dataset's current version. Every part reads the tables as they were
 *    before the statement; the one-live-revision constraint is checked at commit;
 * 6. stores the idempotency key of each applied edit that has one, with its answer.
 *
 * The If-Match of an edit is compared with the row's version before the batch, so a batch must not
 * hold an If-Match edit after another edit of the same row (the caller ends the batch before it).
 *
 * Under READ COMMITTED a statement reads its tables as of its start, even after waiting for a lock:
 * a column removal that commits during the wait would be missed. Every change to a dataset's columns
 * or rows updates the dataset's row (its version, at least), so the statement compares each dataset
 * row in its snapshot with the one it locked (their `xmin`, the transaction that wrote each); where
 * they differ, something committed during the wait, and the statement writes nothing and answers
 * `"stale"`. Run again in the same transaction, which by then holds every lock, it waits for none
 * and reads what the locks protect.
 */
export async function applyEdits(
  db: Kysely<Database>,
  edits: readonly EditRequest[],
): Promise<EditOutcome[] | "stale"> {
  if (edits.length === 0) return [];
  const payload = edits.map((edit, idx) => ({
    idx,
    ...edit.ref,
    rowId: edit.rowId,
    ifMatch: edit.ifMatch,
    builtins: edit.builtins,
    custom: edit.custom,
    versionId: edit.versionId,
    actorKind: edit.actor.kind,
    actorId: edit.actor.id,
    idempotencyKey: edit.idempotency?.key ?? null,
    operationId: edit.idempotency?.operationId ?? null,
    requestHash: edit.idempotency?.requestHash ?? null,
  }));
  const { rows } = await sql<{
    idx: number;
    fresh: boolean;
    status: EditOutcome["status"];
    rejected: string[];
    row_version: number | null;
    version: number | null;
    pending_import_id: string | null;
  }>`${prepared}
    WITH e AS (SELECT * FROM ${unnestRows("e", requestColumns, payload, { sizeHidden: true })}),
    locked AS (
      SELECT d.id, d.current_version, d.xmin::text AS row_version, d.pending_import_id, p.organization_id,
             p.slug AS project_slug, d.slug AS dataset_slug
      FROM datasets d
      JOIN projects p ON p.id = d.project_id
      JOIN (SELECT DISTINCT "organizationId", "projectSlug", "datasetSlug" FROM e) r
        ON p.organization_id = r."organizationId" AND p.slug = r."projectSlug" AND d.slug = r."datasetSlug"
      ORDER BY d.id
      FOR UPDATE OF d
    ),
    fresh AS (
      SELECT NOT EXISTS (
        SELECT FROM locked l JOIN datasets s ON s.id = l.id WHERE s.xmin::text <> l.row_version
      ) AS fresh
    ),
    active AS (
      SELECT dc.dataset_id, array_agg(dc.identifier) AS identifiers,
             array_agg(dc.identifier) FILTER (WHERE dc.kind = 'custom') AS custom
      FROM dataset_columns dc
      WHERE dc.dataset_id IN (SELECT id FROM locked) AND dc.removed_at IS NULL
      GROUP BY dc.dataset_id
    ),
    judged AS (
      SELECT e.*, l.id AS dataset_id, l.current_version, r.version AS row_version, c.rejected,
             l.pending_import_id,
             CASE
               WHEN l.id IS NULL THEN 'dataset_not_found'
               WHEN l.pending_import_id IS NOT NULL THEN 'taking_import'
               WHEN cardinality(c.rejected) > 0 THEN 'unknown_column'
               WHEN r.version IS NULL THEN 'row_not_found'
               WHEN e."ifMatch" <> r.version THEN 'version_mismatch'
               ELSE 'applied'
             END AS status
      FROM e
      LEFT JOIN locked l
        ON l.organization_id = e."organizationId" AND l.project_slug = e."projectSlug" AND l.dataset_slug = e."datasetSlug"
      LEFT JOIN active a ON a.dataset_id = l.id
      LEFT JOIN dataset_rows r ON r.dataset_id = l.id AND r.row_id = e."rowId"
      CROSS JOIN LATERAL (
        SELECT ARRAY(
          SELECT k FROM jsonb_object_keys(e.custom) k WHERE k <> ALL (coalesce(a.custom, '{}'))
          UNION ALL
          SELECT k FROM jsonb_object_keys(e.builtins) k WHERE k <> ALL (coalesce(a.identifiers, '{}'))
        ) AS rejected
        OFFSET 0
      ) c
    ),
    numbered AS (
      SELECT j.*, (j.current_version + row_number() OVER (PARTITION BY j.dataset_id ORDER BY j.idx))::int AS version
      FROM judged j
      WHERE j.status = 'applied' AND (SELECT fresh FROM fresh)
    ),
    chained AS (
      SELECT n.dataset_id, n."rowId" AS row_id, n.version, n."versionId", n."actorKind", n."actorId",
             jsonb_merge(n.builtins) OVER w AS cells,
             jsonb_merge(n.custom) OVER w AS custom,
             lead(n.version) OVER w AS version_to,
             row_number() OVER w = 1 AS is_first
      FROM numbered n
      WINDOW w AS (PARTITION BY n.dataset_id, n."rowId" ORDER BY n.idx)
    ),
    current_cells AS (
      UPDATE dataset_rows r SET ${cellsSet(patchedCells("r", edited))}, version = c.version
      FROM chained c WHERE c.version_to IS NULL AND r.dataset_id = c.dataset_id AND r.row_id = c.row_id
    ),
    ended AS (
      ${endLiveRevisions(sql`c.version`, {
        from: sql`chained c`,
        where: sql`c.is_first AND v.dataset_id = c.dataset_id AND v.row_id = c.row_id`,
      })}
    ),
    revisions AS (
      ${insertRevisions({
        datasetId: sql`c.dataset_id`,
        version: sql`c.version`,
        versionTo: sql`c.version_to`,
        row: { rowId: sql`c.row_id`, cells: patchedCells("b", edited), createdAt: sql`b.created_at` },
        from: sql`chained c JOIN dataset_rows b ON b.dataset_id = c.dataset_id AND b.row_id = c.row_id`,
      })}
    ),
    versions AS (
      INSERT INTO dataset_versions
        (id, dataset_id, version, operation, rows_inserted, rows_updated, rows_deleted, row_count, actor_kind, actor_id)
      -- An edit changes a row, never how many there are: each version has the dataset's count.
      SELECT c."versionId", c.dataset_id, c.version, 'update', 0, 1, 0, d.row_count, c."actorKind", c."actorId"
      FROM chained c JOIN datasets d ON d.id = c.dataset_id
    ),
    moved AS (
      UPDATE datasets d SET current_version = m.version, updated_at = now()
      FROM (SELECT dataset_id, max(version) AS version FROM chained GROUP BY dataset_id) m
      WHERE d.id = m.dataset_id
    ),
    remembered AS (
      INSERT INTO idempotency_records (organization_id, key, operation_id, request_hash, response)
      SELECT n."organizationId", n."idempotencyKey", n."operationId", n."requestHash",
             jsonb_build_object('versionId', n."versionId", 'version', n.version)
      FROM numbered n WHERE n."idempotencyKey" IS NOT NULL
    )
    SELECT j.idx, (SELECT fresh FROM fresh) AS fresh, j.status, j.rejected, j.row_version, n.version,
           j.pending_import_id
    FROM judged j LEFT JOIN numbered n ON n.idx = j.idx
    ORDER BY j.idx`.execute(db);

  if (rows.some((row) => !row.fresh)) return "stale";
  return rows.map((row): EditOutcome => {
    switch (row.status) {
      case "applied":
        return {
          status: "applied",
          version: row.version as number,
          versionId: edits[row.idx]?.versionId as string,
        };
      case "unknown_column":
        return { status: "unknown_column", rejected: row.rejected };
      case "version_mismatch":
        return { status: "version_mismatch", current: row.row_version as number };
      case "taking_import":
        return { status: "taking_import", importId: row.pending_import_id as string };
      default:
        return { status: row.status };
    }
  });
}

/**
 * Whether `applyEdits` failed, changing nothing, because an edit's idempotency key was stored before
 * (a retry) or by a concurrent transaction.
 */
export function isKeyTaken(error: unknown): boolean {
  const { code, constraint } = (error ?? {}) as { code?: unknown; constraint?: unknown };
  return code === "23505" && (constraint === undefined || constraint === "idempotency_records_pk");
}

/** Whether a statement was chosen to end a deadlock: it changed nothing, and may run again. */
export function isDeadlock(error: unknown): boolean {
  return (error as { code?: unknown } | undefined)?.code === "40P01";
}
