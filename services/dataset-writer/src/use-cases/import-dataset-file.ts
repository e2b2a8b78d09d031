import type { UploadStore } from "@svc/bus";
import { type Caller, type Import, type ImportStart, newId } from "@svc/contracts";
import { findDataset } from "@svc/db";
import { listColumns } from "../repositories/columns";
import { findImport, findImportByKey, insertImport, releaseInterruptedKey } from "../repositories/imports";
import { FieldMapping } from "./field-mapping";
import { checkFileStart, type FileImports } from "./file-imports";
import { refOf } from "./versioning";

/**
 * Imports run as jobs in the writer that accepted them. This checks what can be checked before
 * reading the whole file (the dataset, the mapping, the file's first record), records the import and returns it at once; the job
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
    // Refuses a wrong mapping, and a file whose start shows it cannot be imported, now.
    await checkFileStart(uploads, start.upload, new FieldMapping(columns, start.query, start.upload.format));
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
