import type { UploadStore } from "@svc/bus";
import { type Caller, type Import, type ImportStart, newId } from "@svc/contracts";
import { findDataset } from "@svc/db";
import { listColumns } from "../repositories/columns";
import {
  findImport,
  findOptionalImportByKey,
  insertImport,
  releaseInterruptedKey,
} from "../repositories/imports";
import { FieldMapping } from "./field-mapping";
import { checkFileStart, type FileImportDeps, importFileRows } from "./import-file-rows";
import { refOf } from "./versioning";

/**
 * Imports run as jobs in the writer that accepted them. This checks what can be checked before
 * reading the whole file (the dataset, the mapping, the file's first record), records the import and
 * returns it at once; the job (importFileRows, run by ImportJobs) reads the file from the upload
 * store, stages its rows, and moves them into the dataset as one version in one transaction at the
 * end. Whatever happens, the staged rows and the upload go.
 */
export async function importDatasetFile(
  deps: FileImportDeps,
  caller: Caller,
  start: ImportStart,
): Promise<Import> {
  const { db, uploads } = deps;
  const ref = refOf(caller, start.params);
  try {
    const key = caller.idempotencyKey;
    if (key !== undefined) {
      await releaseInterruptedKey(db, ref.organizationId, key);
      const first = await findOptionalImportByKey(db, ref.organizationId, key);
      if (first) return replay(uploads, first, start);
    }
    const dataset = await findDataset(db, ref);
    const mapping = new FieldMapping(await listColumns(db, dataset.id), start.query, start.upload.format);
    // Refuses a wrong mapping, and a file whose start shows it cannot be imported, now.
    await checkFileStart(uploads, start.upload, mapping);
    const importId = newId();
    const inserted = await insertImport(db, {
      id: importId,
      organizationId: ref.organizationId,
      datasetId: dataset.id,
      idempotencyKey: key ?? null,
      format: start.upload.format,
      mode: start.query.mode,
    });
    if (!inserted && key !== undefined) {
      const first = await findOptionalImportByKey(db, ref.organizationId, key);
      if (first) return replay(uploads, first, start);
    }
    const accepted = { importId, start, ref, mapping };
    deps.jobs.launch(importId, start.upload.objectName, (progress) =>
      importFileRows(deps, caller, accepted, progress),
    );
    return await findImport(db, ref.organizationId, importId);
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
