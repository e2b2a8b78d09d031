import { DomainError, type Import, type ImportFormat } from "@svc/contracts";
import {
  type CopyFrom,
  cellsAs,
  cellsFrom,
  type Database,
  endLiveRevisions,
  importColumns,
  insertLiveRows,
  insertRevisions,
  jsonb,
  nextTurn,
  sourceRow,
  toImport,
  unnestRows,
} from "@svc/db";
import { type Kysely, type RawBuilder, sql, type Transaction } from "kysely";

export interface ImportRecord {
  id: string;
  organizationId: string;
  datasetId: string;
  idempotencyKey: string | null;
  format: ImportFormat;
  mode: "insert" | "update";
}

/** Records a new import; undefined when the organisation has an import with that Idempotency-Key. */
export async function insertImport(db: Kysely<Database>, record: ImportRecord): Promise<boolean> {
  const result = await db
    .insertInto("imports")
    .values({
      id: record.id,
      organization_id: record.organizationId,
      dataset_id: record.datasetId,
      idempotency_key: record.idempotencyKey,
      state: "running",
      format: record.format,
      mode: record.mode,
    })
    .onConflict((oc) =>
      oc.columns(["organization_id", "idempotency_key"]).where("idempotency_key", "is not", null).doNothing(),
    )
    .executeTakeFirst();
  return (result.numInsertedOrUpdatedRows ?? 0n) > 0n;
}

export async function findImport(
  db: Kysely<Database>,
  organizationId: string,
  importId: string,
): Promise<Import> {
  const row = await db
    .selectFrom("imports")
    .select(importColumns)
    .where("organization_id", "=", organizationId)
    .where("id", "=", importId)
    .executeTakeFirst();
  if (!row) throw new DomainError("not_found", `Import "${importId}" not found`, { importId });
  return toImport(row);
}

export async function findOptionalImportByKey(
  db: Kysely<Database>,
  organizationId: string,
  key: string,
): Promise<Import | undefined> {
  const row = await db
    .selectFrom("imports")
    .select(importColumns)
    .where("organization_id", "=", organizationId)
    .where("idempotency_key", "=", key)
    .executeTakeFirst();
  return row && toImport(row);
}

/** Frees an Idempotency-Key held by an import that failed because its writer stopped, for a retry. */
export async function releaseInterruptedKey(
  db: Kysely<Database>,
  organizationId: string,
  key: string,
): Promise<void> {
  await db
    .updateTable("imports")
    .set({ idempotency_key: null })
    .where("organization_id", "=", organizationId)
    .where("idempotency_key", "=", key)
    .where("state", "=", "failed")
    .where(sql<boolean>`error ->> 'code' = 'service_unavailable'`)
    .execute();
}

export async function recordProgress(
  db: Kysely<Database>,
  importId: string,
  progress: { bytesRead: number; rowsRead: number },
): Promise<void> {
  await db
    .updateTable("imports")
    .set({ bytes_read: progress.bytesRead, rows_read: progress.rowsRead, updated_at: sql`now()` })
    .where("id", "=", importId)
    .where("state", "=", "running")
    .execute();
}

export async function finishImport(
  db: Kysely<Database>,
  importId: string,
  outcome:
    | {
        state: "succeeded";
        versionId: string | null;
        version: number;
        rowsInserted: number;
        rowsUpdated: number;
      }
    | { state: "failed"; error: { code: string; error: string; details?: Record<string, unknown> } },
  progress: { bytesRead: number; rowsRead: number },
): Promise<void> {
  await db
    .updateTable("imports")
    .set({
      state: outcome.state,
      bytes_read: progress.bytesRead,
      rows_read: progress.rowsRead,
      updated_at: sql`now()`,
      finished_at: sql`now()`,
      ...(outcome.state === "succeeded"
        ? {
            version_id: outcome.versionId,
            version: outcome.version,
            rows_inserted: outcome.rowsInserted,
            rows_updated: outcome.rowsUpdated,
          }
        : { error: jsonb(outcome.error) }),
    })
    .where("id", "=", importId)
    .execute();
}

/**
 * Fails the imports whose writer stopped while running them (nothing has been heard of them for
 * `staleMs`) and drops their staged rows; they wrote nothing to their datasets.
 */
export async function failAbandonedImports(db: Kysely<Database>, staleMs: number): Promise<number> {
  // One statement: an import is seen failed only once its staged rows are gone with it.
  const { rows } = await sql<{ id: string }>`
    WITH failed AS (
      UPDATE imports SET state = 'failed', finished_at = now(), updated_at = now(),
        error = ${jsonb({
          code: "service_unavailable",
          error:
            "The import stopped before it finished (its writer stopped); nothing was written. Upload the file again.",
        })}
      WHERE state IN ('receiving', 'running') AND updated_at < now() - make_interval(secs => ${staleMs / 1000})
      RETURNING id
    ),
    staged AS (DELETE FROM import_rows WHERE import_id IN (SELECT id FROM failed))
    SELECT id FROM failed`.execute(db);
  return rows.length;
}

/** One staged row: its line in the file, its id, and the cells it gives (built-in and custom). */
export interface StagedRow {
  seq: number;
  line: number;
  rowId: string;
  cells: Record<string, unknown>;
  custom: Record<string, unknown>;
}

const stagedColumns = { seq: "int", line: "int", rowId: "text", cells: "jsonb", custom: "jsonb" } as const;

export async function stageRows(
  db: Kysely<Database>,
  importId: string,
  rows: readonly StagedRow[],
): Promise<void> {
  if (rows.length === 0) return;
  await sql`
    INSERT INTO import_rows (import_id, seq, line, row_id, cells, custom)
    SELECT ${importId}, s.seq, s.line, s."rowId", s.cells, s.custom
    FROM ${unnestRows("s", stagedColumns, rows)}`.execute(db);
}

/** Text handed to COPY at a time: many rows per write, a bounded amount in memory. */
const COPY_PIECE_CHARS = 256 * 1024;

/**
 * Stages an import's rows with one COPY as they are read: the database parses the rows while the
 * file is still being read, and a failure anywhere (a bad line) aborts the COPY, staging nothing.
 */
export async function copyStagedRows(copy: CopyFrom, importId: string, rows: AsyncIterable<StagedRow>) {
  async function* lines(): AsyncIterable<string> {
    let piece = "";
    for await (const row of rows) {
      // COPY's text format: tab-separated, a backslash escapes. JSON text has no raw tab or line
      // break (it writes them as \t and \n), row ids have neither, so doubling backslashes suffices.
      piece += `${importId}\t${row.seq}\t${row.line}\t${row.rowId}\t${copyText(JSON.stringify(row.cells))}\t${copyText(JSON.stringify(row.custom))}\n`;
      if (piece.length >= COPY_PIECE_CHARS) {
        yield piece;
        piece = "";
      }
    }
    if (piece !== "") yield piece;
  }
  await copy("COPY import_rows (import_id, seq, line, row_id, cells, custom) FROM STDIN", lines());
}

const copyText = (text: string) => text.replaceAll("\\", "\\\\");

/** Staged rows deleted per statement: a million-row import's must not hold the embedded database. */
const DELETE_PIECE_ROWS = 2_000;

/** Deletes an import's staged rows, a piece per statement. */
export async function deleteStagedRows(db: Kysely<Database>, importId: string): Promise<void> {
  for (;;) {
    const { numAffectedRows } = await sql`
      DELETE FROM import_rows WHERE import_id = ${importId} AND seq IN (
        SELECT seq FROM import_rows WHERE import_id = ${importId} LIMIT ${DELETE_PIECE_ROWS}
      )`.execute(db);
    if (Number(numAffectedRows ?? 0) < DELETE_PIECE_ROWS) return;
    await nextTurn();
  }
}

/**
 * Marks the dataset (locked by the caller's transaction) as taking the import: its next version is
 * the import's until `finishPendingImport` or `undoPendingImport` (decision 0055). Answers the import
 * that holds it already, if another does.
 */
export async function markPendingImport(
  trx: Transaction<Database>,
  datasetId: string,
  importId: string,
): Promise<{ heldBy: string | null; version: number; startedAt: string }> {
  const held = await trx
    .selectFrom("datasets")
    .select(["pending_import_id", "current_version"])
    .where("id", "=", datasetId)
    .forUpdate()
    .executeTakeFirstOrThrow();
  if (held.pending_import_id !== null) {
    return { heldBy: held.pending_import_id, version: held.current_version + 1, startedAt: "" };
  }
  const { rows } = await sql<{ started_at: string }>`
    UPDATE datasets SET pending_import_id = ${importId} WHERE id = ${datasetId}
    RETURNING ${exactNow} AS started_at`.execute(trx);
  return { heldBy: null, version: held.current_version + 1, startedAt: rows[0]?.started_at ?? "" };
}

/** The transaction's time as exact text, so that rows written later in other transactions share it. */
const exactNow = sql`to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/**
 * Ends at `version` the tombstones of the deleted rows whose ids the import gives again, once, in the
 * transaction that marks the dataset as the import's: at every version before, those rows still read
 * as deleted. It reads the dataset's live revisions (none for a new dataset), not the staged rows.
 */
export async function endReusedTombstones(
  trx: Transaction<Database>,
  importId: string,
  datasetId: string,
  version: number,
): Promise<void> {
  await endLiveRevisions(version, {
    where: sql`v.dataset_id = ${datasetId} AND v.deleted
      AND EXISTS (SELECT FROM import_rows s WHERE s.import_id = ${importId} AND s.row_id = v.row_id)`,
  }).execute(trx);
}

/**
 * Inserts the staged rows of `seq` in [fromSeq, toSeq) into the dataset under `version`, the version
 * the import holds (see `markPendingImport`), in one statement: live rows changed last at `version`,
 * which readers of the current version leave out, and revisions valid from it, which no reader of an
 * earlier version sees (a tombstone of a reused id was ended by `endReusedTombstones`). Creation
 * times are `base` plus the row's `seq` in microseconds: the file's order, whichever statement wrote
 * the row. Answers -1, writing nothing, when the dataset is no longer the import's (deleted meanwhile).
 */
export async function insertStagedPiece(
  db: Kysely<Database>,
  piece: {
    importId: string;
    datasetId: string;
    version: number;
    base: string;
    fromSeq: number;
    toSeq: number;
  },
): Promise<number> {
  const { importId, datasetId, version, base, fromSeq, toSeq } = piece;
  const staged = cellsFrom(
    (field) => sql`coalesce(s.cells -> ${sql.lit(field)}, 'null'::jsonb)`,
    sql`s.custom`,
  );
  const { rows } = await sql<{ held: boolean; count: number }>`
    WITH held AS (
      SELECT id FROM datasets WHERE id = ${datasetId} AND pending_import_id = ${importId} FOR SHARE
    ),
    s AS (
      SELECT s.row_id, ${cellsAs(staged)},
             ${base}::timestamptz + s.seq * interval '1 microsecond' AS created_at
      FROM import_rows s
      WHERE s.import_id = ${importId} AND s.seq >= ${fromSeq} AND s.seq < ${toSeq} AND EXISTS (SELECT FROM held)
    ),
    live AS (
      ${insertLiveRows({ datasetId, version, row: sourceRow(), from: sql`s` })}
    ),
    revisions AS (
      ${insertRevisions({ datasetId, version, row: sourceRow(), from: sql`s` })}
    )
    SELECT EXISTS (SELECT FROM held) AS held, (SELECT count(*)::int FROM s) AS count`.execute(db);
  const row = rows[0];
  return row?.held ? row.count : -1;
}

/**
 * Ends the import's hold on the dataset, in the transaction that writes its version; false when the
 * dataset is no longer the import's.
 */
export async function finishPendingImport(
  trx: Transaction<Database>,
  datasetId: string,
  importId: string,
): Promise<boolean> {
  const result = await trx
    .updateTable("datasets")
    .set({ pending_import_id: null })
    .where("id", "=", datasetId)
    .where("pending_import_id", "=", importId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Rows of an undone import's version removed per statement. */
const UNDO_PIECE_ROWS = 1_000;

/**
 * Removes what an import that holds the dataset wrote under its version, a piece per statement, and
 * then, in one transaction that first locks the dataset (so that no piece of the import can commit
 * after it looked), whatever is left, reopens the tombstones the import ended and frees the dataset.
 * Does nothing once the dataset is not the import's: its version was made (or the dataset deleted),
 * and nothing is undone.
 */
export async function undoPendingImport(
  db: Kysely<Database>,
  datasetId: string,
  importId: string,
): Promise<void> {
  const held = sql`
    SELECT id, current_version + 1 AS version FROM datasets
    WHERE id = ${datasetId} AND pending_import_id = ${importId}`;
  const removeRows = (limit: RawBuilder<unknown>) => sql<{ count: number }>`
    WITH held AS (${held}),
    doomed AS (
      SELECT v.row_id FROM row_revisions v JOIN held h ON v.dataset_id = h.id AND v.version_from = h.version
      ${limit}
    ),
    live AS (
      DELETE FROM dataset_rows r USING doomed, held h
      WHERE r.dataset_id = h.id AND r.row_id = doomed.row_id AND r.version = h.version
    ),
    revisions AS (
      DELETE FROM row_revisions v USING doomed, held h
      WHERE v.dataset_id = h.id AND v.row_id = doomed.row_id AND v.version_from = h.version
    )
    SELECT count(*)::int AS count FROM doomed`;
  for (;;) {
    const { rows } = await removeRows(sql`LIMIT ${UNDO_PIECE_ROWS}`).execute(db);
    if ((rows[0]?.count ?? 0) < UNDO_PIECE_ROWS) break;
    await nextTurn();
  }
  await db.transaction().execute(async (trx) => {
    const { rows } = await sql`${held} FOR UPDATE`.execute(trx);
    if (rows.length === 0) return;
    await removeRows(sql``).execute(trx);
    await sql`
      WITH held AS (${held}),
      reopened AS (
        UPDATE row_revisions v SET version_to = NULL FROM held h
        WHERE v.dataset_id = h.id AND v.version_to = h.version
      )
      UPDATE datasets d SET pending_import_id = NULL FROM held h WHERE d.id = h.id`.execute(trx);
  });
}

/** The imports holding a dataset whose job is over (failed by the sweep): theirs to undo. */
export async function listAbandonedHolds(
  db: Kysely<Database>,
): Promise<{ datasetId: string; importId: string }[]> {
  const rows = await db
    .selectFrom("datasets as d")
    .innerJoin("imports as i", "i.id", "d.pending_import_id")
    .select(["d.id as datasetId", "i.id as importId"])
    .where("i.state", "=", "failed")
    .execute();
  return rows;
}

/** A row id the file gives twice, with the lines it is on. */
export async function findOptionalRepeatedRowId(
  db: Kysely<Database>,
  importId: string,
): Promise<{ rowId: string; lines: number[] } | undefined> {
  const { rows } = await sql<{ row_id: string; lines: string[] }>`
    SELECT row_id, (array_agg(line::text ORDER BY line))[1:5] AS lines
    FROM import_rows WHERE import_id = ${importId}
    GROUP BY row_id HAVING count(*) > 1
    ORDER BY min(line) LIMIT 1`.execute(db);
  const row = rows[0];
  return row && { rowId: row.row_id, lines: row.lines.map(Number) };
}

/** Staged rows whose id the dataset has as a live row (insert) or has not (update): id and line. */
export async function listStagedRows(
  db: Kysely<Database>,
  importId: string,
  datasetId: string,
  which: "existing" | "missing",
): Promise<{ rowId: string; line: number }[]> {
  const test = which === "existing" ? sql`EXISTS` : sql`NOT EXISTS`;
  const { rows } = await sql<{ row_id: string; line: string }>`
    SELECT s.row_id, s.line::text AS line FROM import_rows s
    WHERE s.import_id = ${importId}
      AND ${test} (SELECT FROM dataset_rows r WHERE r.dataset_id = ${datasetId} AND r.row_id = s.row_id)
    ORDER BY s.line LIMIT 10`.execute(db);
  return rows.map((row) => ({ rowId: row.row_id, line: Number(row.line) }));
}
