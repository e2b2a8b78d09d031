import type { UploadStore } from "@svc/bus";
import { type Caller, DomainError, type ImportStart } from "@svc/contracts";
import {
  type CopyFrom,
  type Database,
  type DatasetRef,
  DatasetTakingImport,
  findDataset,
  nextTurn,
} from "@svc/db";
import type { Kysely } from "kysely";
import { checkFileKind, firstBytes } from "../domain/file-kinds";
import type { FileRecord } from "../domain/file-record";
import { readRecords } from "../domain/file-records";
import { readParquet } from "../domain/parquet-records";
import { badLine } from "../domain/record-checks";
import type { ImportJobs, ImportOutcome, ImportProgress } from "../jobs/import-jobs";
import { refreshStatistics } from "../repositories/datasets";
import {
  copyStagedRows,
  endReusedTombstones,
  findOptionalRepeatedRowId,
  finishPendingImport,
  insertStagedPiece,
  listStagedRows,
  markPendingImport,
  type StagedRow,
  stageRows,
  undoPendingImport,
} from "../repositories/imports";
import { applyStagedChanges } from "../repositories/row-changes";
import type { FieldMapping } from "./field-mapping";
import { versionTransaction, writeVersion } from "./versioning";

export interface FileImportDeps {
  db: Kysely<Database>;
  uploads: UploadStore;
  /** Where accepted imports run; see ImportJobs. */
  jobs: ImportJobs;
  /** COPY into the database, where it has it (PostgreSQL): rows are then staged by one COPY. */
  copyFrom?: CopyFrom | undefined;
  /** Told of the version an import made, once committed (the live changes of its dataset). */
  versionWritten?: ((ref: DatasetRef, version: number) => void) | undefined;
}

/** What was settled when the import was accepted: its dataset and how the file's fields map to cells. */
export interface AcceptedImport {
  importId: string;
  start: ImportStart;
  ref: DatasetRef;
  mapping: FieldMapping;
}

/**
 * Without COPY, rows staged per statement while the file is read: this many, or fewer when they came
 * from this many bytes of the file (a batch of large rows is held several times over while it is sent).
 */
const STAGE_BATCH = 1000;
const STAGE_BYTES = 2 * 2 ** 20;
/** An import of this many rows or more refreshes the planner's statistics before it reports success. */
const ANALYZE_AFTER_ROWS = 10_000;

/** Rows read and mapped between two turns of the event loop, which the writer's other work shares. */
const ROWS_PER_TURN = 500;

/**
 * An accepted import's work: reads its file, stages its rows, and writes them into the dataset as
 * one version (an insert in pieces, an update in one transaction); a file that changes nothing makes
 * no version (and no new column).
 */
export async function importFileRows(
  deps: FileImportDeps,
  caller: Caller,
  accepted: AcceptedImport,
  progress: ImportProgress,
): Promise<ImportOutcome> {
  const { db, uploads } = deps;
  const { importId, start, ref, mapping } = accepted;
  const staged = async function* () {
    for await (const record of fileRecords(uploads, start.upload, progress, mapping.textFields)) {
      progress.rowsRead++;
      yield mapping.stage(record, progress.rowsRead);
      if (progress.rowsRead % ROWS_PER_TURN === 0) await nextTurn();
    }
  };
  if (deps.copyFrom) await copyStagedRows(deps.copyFrom, importId, staged());
  else await stageInBatches(db, importId, staged(), progress);

  const outcome =
    start.query.mode === "insert"
      ? await insertInPieces(db, caller, accepted, progress.rowsRead, deps.copyFrom !== undefined)
      : await versionTransaction(db, undefined, (trx) =>
          writeVersion(
            trx,
            caller,
            start.params,
            (target) => updateStagedRows(trx, accepted, target),
            ({ versionId, version, work }) => ({
              versionId,
              version,
              rowsInserted: 0,
              rowsUpdated: work.rowsUpdated ?? 0,
            }),
          ),
        );
  if (outcome.versionId !== null) deps.versionWritten?.(ref, outcome.version);
  // The planner must know the rows are there before anyone reads them: until the next automatic
  // ANALYZE it would still think the tables small and read a page of a big import by sorting it all.
  // The embedded database (no COPY there) takes the small sample: its large one stops it for seconds.
  if (outcome.rowsInserted >= ANALYZE_AFTER_ROWS) await refreshStatistics(db, { small: !deps.copyFrom });
  return outcome;
}

/**
 * The rows a piece of an insert starts with; then as many as took about `PIECE_MS` last time. The
 * embedded database serves nothing else while a piece runs: short pieces. A database server runs
 * other statements beside it, on other connections: longer pieces, fewer commits.
 */
const FIRST_PIECE_ROWS = 200;
const PIECE_MS = { embedded: 25, server: 250 };
const MAX_PIECE_ROWS = 50_000;

/**
 * Inserts the `staged` rows as one version, written in pieces (decision 0055): a first transaction
 * marks the dataset as taking the import; each piece of rows is then a statement of its own, written
 * under the coming version, which no reader sees; a last transaction creates the file's columns and
 * makes the version. Other requests run between the pieces, whatever the file's size; other changes
 * of this dataset wait meanwhile. A row id the file repeats or the dataset has breaks a piece's keys;
 * on that or any failure the pieces are removed and the dataset freed.
 */
async function insertInPieces(
  db: Kysely<Database>,
  caller: Caller,
  accepted: AcceptedImport,
  staged: number,
  databaseServer: boolean,
): Promise<ImportOutcome> {
  const pieceMs = databaseServer ? PIECE_MS.server : PIECE_MS.embedded;
  const { importId, start, mapping } = accepted;
  // A file with no rows (a CSV of its header alone) adds nothing: no version, no new column.
  if (staged === 0) {
    return {
      versionId: null,
      version: (await findDataset(db, accepted.ref)).version,
      rowsInserted: 0,
      rowsUpdated: 0,
    };
  }
  const hold = await db.transaction().execute(async (trx) => {
    const dataset = await findDataset(trx, accepted.ref);
    const mark = await markPendingImport(trx, dataset.id, importId);
    if (mark.heldBy !== null) throw new DatasetTakingImport(start.params.datasetSlug, mark.heldBy);
    await endReusedTombstones(trx, importId, dataset.id, mark.version);
    return { datasetId: dataset.id, version: mark.version, base: mark.startedAt };
  });
  try {
    let inserted = 0;
    let analyzedAt = ANALYZE_AFTER_ROWS / 2;
    let rows = FIRST_PIECE_ROWS;
    // The rows were staged with the sequence numbers 1 to `staged`, in the file's order.
    for (let fromSeq = 1; fromSeq <= staged; ) {
      const began = performance.now();
      const written = await insertStagedPiece(db, {
        importId,
        ...hold,
        fromSeq,
        toSeq: fromSeq + rows,
      }).catch(async (error: unknown) => {
        // A row id given twice, or one the dataset has, breaks a key of the rows: said by line once
        // the pieces are gone (the checks read every staged row, so they run only on failure).
        await undoPendingImport(db, hold.datasetId, importId);
        await checkStagedInsert(db, importId, hold.datasetId);
        throw error;
      });
      if (written < 0) throw await interrupted(db, accepted.ref);
      await nextTurn();
      inserted += written;
      // Other statements plan by the tables' statistics, which knew them without these rows: each
      // doubling is told, lest an edit elsewhere read a grown table whole. A database server samples
      // the tables beside this work; the embedded one would stop everything, and waits for the end.
      if (databaseServer && inserted >= analyzedAt * 2) {
        analyzedAt = inserted;
        await refreshStatistics(db);
      }
      fromSeq += rows;
      const took = Math.max(1, performance.now() - began);
      rows = Math.round(Math.min(MAX_PIECE_ROWS, Math.max(FIRST_PIECE_ROWS, (rows * pieceMs) / took)));
    }
    const { versionId, version } = await versionTransaction(db, undefined, async (trx) => {
      if (!(await finishPendingImport(trx, hold.datasetId, importId)))
        throw await interrupted(trx, accepted.ref);
      return writeVersion(trx, caller, start.params, async (target) => {
        if (target.version !== hold.version) {
          throw new Error(
            `import ${importId} held version ${hold.version}, but the dataset is at ${target.version}`,
          );
        }
        await mapping.createColumns(trx, target.datasetId);
        return { operation: "import" as const, rowsInserted: inserted };
      });
    });
    return { versionId, version, rowsInserted: inserted, rowsUpdated: 0 };
  } catch (error) {
    // When this fails too (the database gone), the sweep of abandoned imports undoes it.
    await undoPendingImport(db, hold.datasetId, importId).catch(() => undefined);
    throw error;
  }
}

/**
 * Why an import's hold on its dataset is gone before it made its version: the dataset was deleted,
 * or the import was taken for abandoned (its progress unheard of) and undone.
 */
async function interrupted(db: Kysely<Database>, ref: DatasetRef): Promise<DomainError> {
  await findDataset(db, ref);
  return new DomainError(
    "service_unavailable",
    "The import stopped before it finished (it was taken for abandoned); nothing was written. Upload the file again.",
  );
}

/** Refuses a file that gives a row id twice. */
async function checkRepeatedRowIds(trx: Kysely<Database>, importId: string): Promise<void> {
  const repeated = await findOptionalRepeatedRowId(trx, importId);
  if (repeated) {
    throw badLine(
      repeated.lines[1] ?? 0,
      `the row id "${repeated.rowId}" is on lines ${repeated.lines.join(", ")}; each row may appear once`,
      { rowId: repeated.rowId, lines: repeated.lines },
    );
  }
}

/** Refuses an insert that repeats a row id or gives one the dataset has. */
async function checkStagedInsert(trx: Kysely<Database>, importId: string, datasetId: string): Promise<void> {
  await checkRepeatedRowIds(trx, importId);
  const taken = await listStagedRows(trx, importId, datasetId, "existing");
  const first = taken[0];
  if (first) {
    throw new DomainError(
      "conflict",
      `Line ${first.line}: the dataset already has a row "${first.rowId}"; import with mode=update to change existing rows`,
      { line: first.line, rowIds: taken.map((row) => row.rowId) },
    );
  }
}

/** Inside the version's transaction: the staged rows change the dataset's rows of the same ids. */
async function updateStagedRows(
  trx: Kysely<Database>,
  { importId, mapping }: AcceptedImport,
  target: { datasetId: string; version: number },
) {
  await mapping.createColumns(trx, target.datasetId);
  await checkRepeatedRowIds(trx, importId);
  const missing = await listStagedRows(trx, importId, target.datasetId, "missing");
  const first = missing[0];
  if (first) {
    throw new DomainError(
      "not_found",
      `Line ${first.line}: the dataset has no row "${first.rowId}" to update`,
      {
        line: first.line,
        rowIds: missing.map((row) => row.rowId),
      },
    );
  }
  const updated = await applyStagedChanges(trx, importId, target.datasetId, target.version);
  return { operation: "import" as const, rowsUpdated: updated };
}

/**
 * Stages the rows a batch per statement where COPY is not there (the embedded database): a batch is
 * written while the next is read, so the database and this process work side by side. Whatever
 * happens, the batch being written has settled before this returns, so that nothing is staged after
 * the import cleans up.
 */
async function stageInBatches(
  db: Kysely<Database>,
  importId: string,
  rows: AsyncIterable<StagedRow>,
  progress: { bytesRead: number },
): Promise<void> {
  let staging: Promise<void> = Promise.resolve();
  const stage = async (batch: StagedRow[]) => {
    await staging;
    await nextTurn();
    staging = stageRows(db, importId, batch);
    staging.catch(() => undefined); // awaited by the next batch or below
  };
  try {
    let batch: StagedRow[] = [];
    let batchFrom = 0;
    for await (const row of rows) {
      batch.push(row);
      if (batch.length >= STAGE_BATCH || progress.bytesRead - batchFrom >= STAGE_BYTES) {
        await stage(batch);
        batch = [];
        batchFrom = progress.bytesRead;
      }
    }
    await stage(batch);
    await staging;
  } catch (error) {
    await staging.catch(() => undefined);
    throw error;
  }
}

/**
 * Reads the start of an uploaded file, up to its first record, and maps that record: a file that is
 * not what its format says, too wide a header, or a first record the mapping refuses throws here,
 * before the import is accepted, rather than in a job that fails later. Of a Parquet file, whose
 * records are found from its end, only the first bytes are read here.
 */
export async function checkFileStart(
  uploads: UploadStore,
  upload: ImportStart["upload"],
  mapping: FieldMapping,
): Promise<void> {
  checkFileKind(upload.format, await firstBytes(uploads.get(upload.objectName)));
  if (upload.format === "parquet") return;
  const records = readRecords(
    upload.format,
    uploads.get(upload.objectName),
    { bytesRead: 0 },
    mapping.textFields,
  );
  for await (const record of records) {
    mapping.stage(record, 1);
    break;
  }
}

/** The file's records: a stream for the text formats; Parquet, which must seek, from a file on disk. */
async function* fileRecords(
  uploads: UploadStore,
  upload: ImportStart["upload"],
  progress: { bytesRead: number },
  textFields: ReadonlySet<string>,
): AsyncIterable<FileRecord> {
  if (upload.format !== "parquet") {
    yield* readRecords(upload.format, uploads.get(upload.objectName), progress, textFields);
    return;
  }
  const file = await uploads.local(upload.objectName);
  try {
    yield* readParquet(file.path, progress);
  } finally {
    await file.release();
  }
}
