import { isDependencyUnavailable, type UploadStore } from "@svc/bus";
import {
  type BuiltinField,
  type Caller,
  DomainError,
  findUnstorableInput,
  type Import,
  type ImportFormat,
  type ImportStart,
  internalErrorMessage,
  isBuiltinField,
  newId,
  ROW_ID_PATTERN,
} from "@svc/contracts";
import { type CopyFrom, type Database, findDataset } from "@svc/db";
import type { Logger } from "@svc/telemetry";
import type { Kysely } from "kysely";
import { badLine, type FileRecord, readRecords } from "../domain/file-records";
import { readParquet } from "../domain/parquet-records";
import { type ColumnRecord, insertCustomColumn, listColumns } from "../repositories/columns";
import { refreshStatistics } from "../repositories/datasets";
import {
  copyStagedRows,
  deleteStagedRows,
  findImport,
  findImportByKey,
  findRepeatedRowId,
  findStagedRows,
  finishImport,
  insertImport,
  insertStagedRows,
  recordProgress,
  releaseInterruptedKey,
  type StagedRow,
  stageRows,
} from "../repositories/imports";
import { applyStagedChanges } from "../repositories/row-changes";
import { NothingChanged, refOf, writeVersion } from "./versioning";

export interface ImportDeps {
  db: Kysely<Database>;
  uploads: UploadStore;
  logger: Logger;
  /** COPY into the database, where it has it (PostgreSQL): rows are then staged by one COPY. */
  copyFrom?: CopyFrom | undefined;
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

/**
 * Imports run as jobs in the writer that accepted them. This checks what can be checked before
 * reading the file (the dataset, the mapping), records the import and returns it at once; the job
 * (see FileImports) reads the file from the upload store, stages its rows, and moves them into the
 * dataset as one version in one transaction at the end. Whatever happens, the staged rows and the
 * upload go.
 */
export async function importDatasetFile(
  imports: FileImports,
  caller: Caller,
  start: ImportStart,
): Promise<Import> {
  const { db, uploads } = imports.deps;
  const organizationId = refOf(caller, start.params).organizationId;
  try {
    const key = caller.idempotencyKey;
    if (key !== undefined) {
      await releaseInterruptedKey(db, organizationId, key);
      const first = await findImportByKey(db, organizationId, key);
      if (first) return replay(uploads, first, start);
    }
    const dataset = await findDataset(db, refOf(caller, start.params));
    const columns = await listColumns(db, dataset.id);
    // Refuses a wrong mapping now, before any of the file is read.
    new FieldMapping(columns, start.query, start.upload.format);
    const importId = newId();
    const inserted = await insertImport(db, {
      id: importId,
      organizationId,
      datasetId: dataset.id,
      idempotencyKey: key ?? null,
      format: start.upload.format,
      mode: start.query.mode,
    });
    if (!inserted && key !== undefined) {
      const first = await findImportByKey(db, organizationId, key);
      if (first) return replay(uploads, first, start);
    }
    imports.launch(caller, importId, start);
    return (await findImport(db, organizationId, importId)) as Import;
  } catch (error) {
    await uploads.delete(start.upload.objectName).catch(() => undefined);
    throw error;
  }
}

/** A retry of an import: the first one answers, and the file uploaded again is not needed. */
async function replay(uploads: UploadStore, first: Import, start: ImportStart): Promise<Import> {
  await uploads.delete(start.upload.objectName).catch(() => undefined);
  return first;
}

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
      for await (const record of fileRecords(uploads, start.upload, progress)) {
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

/** The file's records: a stream for the text formats; Parquet, which must seek, from a file on disk. */
async function* fileRecords(
  uploads: UploadStore,
  upload: ImportStart["upload"],
  progress: { bytesRead: number },
): AsyncIterable<FileRecord> {
  if (upload.format !== "parquet") {
    yield* readRecords(upload.format, uploads.get(upload.objectName), progress);
    return;
  }
  const file = await uploads.local(upload.objectName);
  try {
    yield* readParquet(file.path, progress);
  } finally {
    await file.release();
  }
}

type Target =
  | { kind: "id" }
  | { kind: "builtin"; field: BuiltinField }
  | { kind: "custom"; identifier: string }
  | { kind: "skip" };

const BUILTIN_ALIASES: Record<string, BuiltinField> = {
  input: "input",
  output: "output",
  expectedOutput: "expectedOutput",
  expected_output: "expectedOutput",
  metadata: "metadata",
};

/**
 * Where each field of a file goes: the `map` of the import, or names (API.md). Columns the file asks
 * for are given identifiers when first met and created in the import's own transaction, so an import
 * that fails creates none.
 */
class FieldMapping {
  private readonly targets = new Map<string, Target>();
  private readonly created = new Map<string, { identifier: string; name: string }>();
  private readonly active: ColumnRecord[];
  private readonly removed: ColumnRecord[];
  private readonly idFields: Set<string>;

  constructor(
    columns: readonly ColumnRecord[],
    private readonly query: ImportStart["query"],
    private readonly format: ImportFormat,
  ) {
    this.active = columns.filter((column) => !column.removed);
    this.removed = columns.filter((column) => column.removed);
    this.idFields = new Set(query.idField ? [query.idField] : format === "csv" ? ["id"] : ["id", "rowId"]);
    for (const [field, to] of Object.entries(query.map ?? {}))
      this.targets.set(field, this.mapped(field, to));
  }

  /** One record as a staged row; throws a bad line for a record that cannot be imported. */
  stage({ line, fields, text }: FileRecord, seq: number): StagedRow {
    const cells: Record<string, unknown> = {};
    const custom: Record<string, unknown> = {};
    let rowId: string | undefined;
    for (const [field, value] of Object.entries(fields)) {
      const unstorable = findUnstorableInput(value);
      if (unstorable) throw badLine(line, `field "${field}": ${unstorable.message}`, { field });
      if (field === "custom" && this.query.map === undefined && this.format !== "csv" && isObject(value)) {
        for (const [key, cell] of Object.entries(value)) {
          const target = this.byName(key, true);
          if (target.kind === "custom") custom[target.identifier] = cell;
        }
        continue;
      }
      const target = this.targetOf(field);
      if (target.kind === "id") rowId = this.rowIdOf(line, field, text?.[field] ?? value);
      else if (target.kind === "builtin") cells[target.field] = value;
      else if (target.kind === "custom") custom[target.identifier] = value;
    }
    if (rowId === undefined) {
      if (this.query.mode === "update") {
        throw badLine(
          line,
          `no row id: mode=update needs the field "${[...this.idFields].join('" or "')}" on every line`,
        );
      }
      rowId = newId();
    }
    return { seq, line, rowId, cells, custom };
  }

  /** Creates the columns the file asked for; refuses a mapped column removed since the import began. */
  async createColumns(trx: Kysely<Database>, datasetId: string): Promise<void> {
    const now = await listColumns(trx, datasetId);
    for (const target of this.targets.values()) {
      if (
        target.kind !== "custom" ||
        [...this.created.values()].some((c) => c.identifier === target.identifier)
      )
        continue;
      if (!now.some((column) => column.identifier === target.identifier && !column.removed)) {
        throw unknownColumn(target.identifier, "was removed while the file was imported");
      }
    }
    for (const column of this.created.values()) {
      const clash = now.find((c) => !c.removed && c.name.toLowerCase() === column.name.toLowerCase());
      if (clash) {
        throw new DomainError(
          "conflict",
          `A column named "${column.name}" was added while the file was imported; import it again`,
          {
            name: column.name,
          },
        );
      }
      await insertCustomColumn(trx, { datasetId, identifier: column.identifier, name: column.name });
    }
  }

  private targetOf(field: string): Target {
    let target = this.targets.get(field);
    if (target === undefined) {
      target = this.idFields.has(field)
        ? { kind: "id" }
        : this.query.map
          ? { kind: "skip" }
          : this.byName(field, false);
      this.targets.set(field, target);
    }
    return target;
  }

  /** Without a map: a built-in cell, an active column by identifier or display name, else a new column. */
  private byName(field: string, customOnly: boolean): Target {
    const builtin = BUILTIN_ALIASES[field];
    if (builtin && !customOnly) return this.builtinTarget(builtin, field);
    // An export heads a custom column named like a built-in field "name (identifier)".
    const suffixed = /\(([A-Za-z0-9_]{1,64})\)$/.exec(field)?.[1];
    const column =
      this.active.find((c) => c.identifier === field) ??
      this.active.find((c) => c.name.toLowerCase() === field.toLowerCase()) ??
      this.active.find((c) => c.identifier === suffixed && field === `${c.name} (${c.identifier})`);
    if (column && (!customOnly || column.kind === "custom")) {
      return column.kind === "builtin"
        ? { kind: "builtin", field: column.field as BuiltinField }
        : { kind: "custom", identifier: column.identifier };
    }
    return this.newColumn(field);
  }

  private mapped(field: string, to: string): Target {
    if (to.startsWith("new:")) {
      const name = to.slice("new:".length).trim();
      const clash = this.active.find((c) => c.name.toLowerCase() === name.toLowerCase());
      if (clash) {
        throw new DomainError(
          "conflict",
          `map asks for a new column "${name}" for "${field}", but the dataset has one (identifier "${clash.identifier}"); map the field to that identifier`,
          { field, identifier: clash.identifier },
        );
      }
      return this.newColumn(name);
    }
    if (isBuiltinField(to)) return this.builtinTarget(to, field);
    const column = this.active.find((c) => c.identifier === to && c.kind === "custom");
    if (!column && this.removed.some((c) => c.identifier === to)) throw removedColumn(to, field);
    if (!column)
      throw unknownColumn(to, `is not an active column of the dataset (map sends "${field}" to it)`);
    return { kind: "custom", identifier: column.identifier };
  }

  private builtinTarget(field: BuiltinField, from: string): Target {
    if (!this.active.some((column) => column.kind === "builtin" && column.field === field)) {
      throw removedColumn(field, from);
    }
    return { kind: "builtin", field };
  }

  private newColumn(name: string): Target {
    const trimmed = name.trim();
    if (trimmed === "" || trimmed.length > 200) {
      throw new DomainError(
        "validation_failed",
        `The field "${name.slice(0, 60)}" cannot name a column: a name has 1-200 characters`,
        {
          field: name,
        },
      );
    }
    const key = trimmed.toLowerCase();
    let column = this.created.get(key);
    if (!column) {
      column = { identifier: newId(), name: trimmed };
      this.created.set(key, column);
    }
    return { kind: "custom", identifier: column.identifier };
  }

  private rowIdOf(line: number, field: string, value: unknown): string {
    const text = typeof value === "number" && Number.isInteger(value) ? String(value) : value;
    if (typeof text !== "string" || !ROW_ID_PATTERN.test(text)) {
      throw badLine(
        line,
        `the row id in "${field}" must be 1-128 letters, digits, '_', '.', '~' or '-'; got ${JSON.stringify(value)?.slice(0, 60)}`,
        { field },
      );
    }
    return text;
  }
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const removedColumn = (identifier: string, field: string) =>
  unknownColumn(
    identifier,
    `was removed, so the field "${field}" has nowhere to go; restore the column or map the field elsewhere`,
  );

const unknownColumn = (identifier: string, why: string) =>
  new DomainError("unknown_column", `Unknown or removed column "${identifier}": it ${why}`, {
    column: identifier,
  });
