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
  sourceRow,
  toImport,
  unnestRows,
} from "@svc/db";
import { type Kysely, sql } from "kysely";

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

export async function deleteStagedRows(db: Kysely<Database>, importId: string): Promise<void> {
  await db.deleteFrom("import_rows").where("import_id", "=", importId).execute();
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

/**
 * Inserts the staged rows into the dataset at `version`, in the file's order (creation times a
 * microsecond apart). An id that a deleted row had ends that row's tombstone first.
 */
export async function insertStagedRows(
  db: Kysely<Database>,
  importId: string,
  datasetId: string,
  version: number,
): Promise<number> {
  await endLiveRevisions(version, {
    from: sql`import_rows s`,
    where: sql`s.import_id = ${importId} AND v.dataset_id = ${datasetId} AND v.row_id = s.row_id`,
  }).execute(db);
  const staged = cellsFrom(
    (field) => sql`coalesce(s.cells -> ${sql.lit(field)}, 'null'::jsonb)`,
    sql`s.custom`,
  );
  const { rows } = await sql<{ count: number }>`
    WITH s AS (
      SELECT s.row_id, ${cellsAs(staged)},
             now() + s.seq * interval '1 microsecond' AS created_at
      FROM import_rows s WHERE s.import_id = ${importId}
    ),
    live AS (
      ${insertLiveRows({ datasetId, version, row: sourceRow(), from: sql`s` })}
    ),
    revisions AS (
      ${insertRevisions({ datasetId, version, row: sourceRow(), from: sql`s` })}
    )
    SELECT count(*)::int AS count FROM s`.execute(db);
  return rows[0]?.count ?? 0;
}
