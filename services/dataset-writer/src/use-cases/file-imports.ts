import { isDependencyUnavailable, type UploadStore } from "@svc/bus";
import { type Caller, DomainError, type ImportStart, internalErrorMessage } from "@svc/contracts";
import { type CopyFrom, type Database, type DatasetRef, findDataset } from "@svc/db";
import type { Logger } from "@svc/telemetry";
import type { Kysely } from "kysely";
import { checkFileKind, firstBytes } from "../domain/file-kinds";
import { type FileRecord, readRecords } from "../domain/file-records";
import { readParquet } from "../domain/parquet-records";
import { badLine } from "../domain/record-checks";
import { listColumns } from "../repositories/columns";
import { refreshStatistics } from "../repositories/datasets";
import {
  copyStagedRows,
  deleteStagedRows,
  findRepeatedRowId,
  findStagedRows,
  finishImport,
  insertStagedRows,
  recordProgress,
  type StagedRow,
  stageRows,
} from "../repositories/imports";
import { applyStagedChanges } from "../repositories/row-changes";
import { FieldMapping } from "./field-mapping";
import { NothingChanged, refOf, writeVersion } from "./versioning";

export interface ImportDeps {
  db: Kysely<Database>;
  uploads: UploadStore;
  logger: Logger;
  /** COPY into the database, where it has it (PostgreSQL): rows are then staged by one COPY. */
  copyFrom?: CopyFrom | undefined;
  /** Told of the version an import made, once committed (the live changes of its dataset). */
  versionWritten?: ((ref: DatasetRef, version: number) => void) | undefined;
}

/**
 * Without COPY, rows staged per statement while the file is read: this many, or fewer when they came
 * from this many bytes of the file (a batch of large rows is held several times over while it is sent).
 */
const STAGE_BATCH = 1000;
const STAGE_BYTES = 2 * 2 ** 20;
/** An import of this many rows or more refreshes the planner's statistics before it reports success. */
const ANALYZE_AFTER_ROWS = 10_000;
/** How often a running import writes its progress (and so shows it is alive). */
const PROGRESS_EVERY_MS = 1000;

/** The import jobs of this writer: each reads its file, stages its rows and writes them as one version. */
export class FileImports {
  private readonly running = new Set<Promise<void>>();

  constructor(readonly deps: ImportDeps) {}

  /** Runs an accepted import's job in the background. */
  launch(caller: Caller, importId: string, start: ImportStart): void {
    const job = this.run(caller, importId, start).finally(() => this.running.delete(job));
    this.running.add(job);
  }

  /** Waits for the running jobs: a writer that stops lets them end. */
  async drain(): Promise<void> {
    await Promise.allSettled([...this.running]);
  }

  private async run(caller: Caller, importId: string, start: ImportStart): Promise<void> {
    const { db, uploads, logger } = this.deps;
    const progress = { bytesRead: 0, rowsRead: 0 };
    const heartbeat = setInterval(() => {
      recordProgress(db, importId, progress).catch(() => undefined);
    }, PROGRESS_EVERY_MS);
    heartbeat.unref();
    try {
      const outcome = await this.importFile(caller, importId, start, progress);
      if (outcome.versionId !== null)
        this.deps.versionWritten?.(refOf(caller, start.params), outcome.version);
      // The planner must know the rows are there before anyone reads them: until the next automatic
      // ANALYZE it would still think the tables small and read a page of a big import by sorting it all.
      if (outcome.rowsInserted >= ANALYZE_AFTER_ROWS) await refreshStatistics(db);
      await finishImport(db, importId, { state: "succeeded", ...outcome }, progress);
    } catch (error) {
      const failure =
        error instanceof DomainError
          ? { code: error.code, error: error.message, ...(error.details ? { details: error.details } : {}) }
          : isDependencyUnavailable(error)
            ? {
                code: "service_unavailable",
                error: "The database could not be reached; nothing was written. Upload the file again.",
              }
            : {
                code: "internal_error",
                error: internalErrorMessage(`import id ${importId}`),
              };
      if (!(error instanceof DomainError)) logger.error({ err: error, importId }, "import failed");
      await finishImport(db, importId, { state: "failed", error: failure }, progress).catch(
        (finishError: unknown) =>
          logger.error({ err: finishError, importId }, "could not record an import's failure"),
      );
    } finally {
      clearInterval(heartbeat);
      await deleteStagedRows(db, importId).catch(() => undefined);
      await uploads.delete(start.upload.objectName).catch(() => undefined);
    }
  }

  private async importFile(
    caller: Caller,
    importId: string,
    start: ImportStart,
    progress: { bytesRead: number; rowsRead: number },
  ) {
    const { db, uploads } = this.deps;
    const ref = refOf(caller, start.params);
    const dataset = await findDataset(db, ref);
    const mapping = new FieldMapping(await listColumns(db, dataset.id), start.query, start.upload.format);

    const staged = async function* () {
      for await (const record of fileRecords(uploads, start.upload, progress, mapping.textFields)) {
        progress.rowsRead++;
        yield mapping.stage(record, progress.rowsRead);
      }
    };
    if (this.deps.copyFrom) await copyStagedRows(this.deps.copyFrom, importId, staged());
    else await stageInBatches(db, importId, staged(), progress);

    try {
      const result = await db.transaction().execute((trx) =>
        writeVersion(trx, caller, start.params, async (target) => {
          await mapping.createColumns(trx, target.datasetId);
          const repeated = await findRepeatedRowId(trx, importId);
          if (repeated) {
            throw badLine(
              repeated.lines[1] ?? 0,
              `the row id "${repeated.rowId}" is on lines ${repeated.lines.join(", ")}; each row may appear once`,
              { rowId: repeated.rowId, lines: repeated.lines },
            );
          }
          if (start.query.mode === "insert") {
            const taken = await findStagedRows(trx, importId, target.datasetId, "existing");
            const first = taken[0];
            if (first) {
              throw new DomainError(
                "conflict",
                `Line ${first.line}: the dataset already has a row "${first.rowId}"; import with mode=update to change existing rows`,
                { line: first.line, rowIds: taken.map((row) => row.rowId) },
              );
            }
            const inserted = await insertStagedRows(trx, importId, target.datasetId, target.version);
            // A file with no rows (a CSV of its header alone) adds nothing: no version, no new column.
            if (inserted === 0) throw new NothingChanged();
            return { operation: "import" as const, rowsInserted: inserted };
          }
          const missing = await findStagedRows(trx, importId, target.datasetId, "missing");
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
          if (updated === 0) throw new NothingChanged();
          return { operation: "import" as const, rowsUpdated: updated };
        }),
      );
      return {
        versionId: result.versionId,
        version: result.version,
        rowsInserted: result.work.rowsInserted ?? 0,
        rowsUpdated: result.work.rowsUpdated ?? 0,
      };
    } catch (error) {
      if (!(error instanceof NothingChanged)) throw error;
      const now = await findDataset(db, ref);
      return { versionId: null, version: now.version, rowsInserted: 0, rowsUpdated: 0 };
    }
  }
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
