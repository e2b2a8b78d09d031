import type { UploadStore } from "@svc/bus";
import { type Caller, DomainError, type ImportStart } from "@svc/contracts";
import type { CopyFrom, Database, DatasetRef } from "@svc/db";
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
  findOptionalRepeatedRowId,
  insertStagedRows,
  listStagedRows,
  type StagedRow,
  stageRows,
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

/**
 * An accepted import's work: reads its file, stages its rows, and writes them into the dataset as
 * one version in one transaction; a file that changes nothing makes no version (and no new column).
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
    }
  };
  if (deps.copyFrom) await copyStagedRows(deps.copyFrom, importId, staged());
  else await stageInBatches(db, importId, staged(), progress);

  const outcome = await versionTransaction(db, undefined, (trx) =>
    writeVersion(
      trx,
      caller,
      start.params,
      (target) => moveStagedRows(trx, accepted, target),
      ({ versionId, version, work }) => ({
        versionId,
        version,
        rowsInserted: work.rowsInserted ?? 0,
        rowsUpdated: work.rowsUpdated ?? 0,
      }),
    ),
  );
  if (outcome.versionId !== null) deps.versionWritten?.(ref, outcome.version);
  // The planner must know the rows are there before anyone reads them: until the next automatic
  // ANALYZE it would still think the tables small and read a page of a big import by sorting it all.
  if (outcome.rowsInserted >= ANALYZE_AFTER_ROWS) await refreshStatistics(db);
  return outcome;
}

/** Inside the version's transaction: the staged rows become the dataset's, by the import's mode. */
async function moveStagedRows(
  trx: Kysely<Database>,
  { importId, start, mapping }: AcceptedImport,
  target: { datasetId: string; version: number },
) {
  await mapping.createColumns(trx, target.datasetId);
  const repeated = await findOptionalRepeatedRowId(trx, importId);
  if (repeated) {
    throw badLine(
      repeated.lines[1] ?? 0,
      `the row id "${repeated.rowId}" is on lines ${repeated.lines.join(", ")}; each row may appear once`,
      { rowId: repeated.rowId, lines: repeated.lines },
    );
  }
  if (start.query.mode === "insert") {
    const taken = await listStagedRows(trx, importId, target.datasetId, "existing");
    const first = taken[0];
    if (first) {
      throw new DomainError(
        "conflict",
        `Line ${first.line}: the dataset already has a row "${first.rowId}"; import with mode=update to change existing rows`,
        { line: first.line, rowIds: taken.map((row) => row.rowId) },
      );
    }
    // A file with no rows (a CSV of its header alone) adds nothing: no version, no new column.
    const inserted = await insertStagedRows(trx, importId, target.datasetId, target.version);
    return { operation: "import" as const, rowsInserted: inserted };
  }
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
