import type { UploadStore } from "@svc/bus";
import { DomainError, internalErrorMessage } from "@svc/contracts";
import { CommitOutcomeUnknown, type Database, isDependencyUnavailable } from "@svc/db";
import type { Logger } from "@svc/telemetry";
import type { Kysely } from "kysely";
import { deleteStagedRows, finishImport, recordProgress } from "../repositories/imports";

/** How far a running import has read its file; written as its progress, and so as its heartbeat. */
export interface ImportProgress {
  bytesRead: number;
  rowsRead: number;
}

/** What an import that succeeded made: a version, or none when the file changed nothing. */
export interface ImportOutcome {
  versionId: string | null;
  version: number;
  rowsInserted: number;
  rowsUpdated: number;
}

/** How often a running import writes its progress (and so shows it is alive). */
const PROGRESS_EVERY_MS = 1000;

/**
 * The import jobs of this writer, apart from what an import does (use-cases/import-file-rows): each
 * job runs in the background, writes its progress every second (a job that stops being heard of is
 * failed by the sweep of abandoned imports), records how it ended, and, whatever happens, removes its
 * staged rows and its upload.
 */
export class ImportJobs {
  constructor(private readonly deps: { db: Kysely<Database>; uploads: UploadStore; logger: Logger }) {}

  /** Runs `work` as the job of the accepted import `importId`, whose file is `objectName`. */
  launch(
    importId: string,
    objectName: string,
    work: (progress: ImportProgress) => Promise<ImportOutcome>,
  ): void {
    void this.run(importId, objectName, work);
  }

  private async run(
    importId: string,
    objectName: string,
    work: (progress: ImportProgress) => Promise<ImportOutcome>,
  ): Promise<void> {
    const { db, uploads, logger } = this.deps;
    const progress: ImportProgress = { bytesRead: 0, rowsRead: 0 };
    const heartbeat = setInterval(() => {
      recordProgress(db, importId, progress).catch(() => undefined);
    }, PROGRESS_EVERY_MS);
    heartbeat.unref();
    try {
      const outcome = await work(progress);
      await finishImport(db, importId, { state: "succeeded", ...outcome }, progress);
    } catch (error) {
      if (!(error instanceof DomainError)) logger.error({ err: error, importId }, "import failed");
      await finishImport(
        db,
        importId,
        { state: "failed", error: failureOf(error, importId) },
        progress,
      ).catch((finishError: unknown) =>
        logger.error({ err: finishError, importId }, "could not record an import's failure"),
      );
    } finally {
      clearInterval(heartbeat);
      await deleteStagedRows(db, importId).catch(() => undefined);
      await uploads.delete(objectName).catch(() => undefined);
    }
  }
}

/** How a failed import reads to the person polling it: the rule it broke, else what to do now. */
function failureOf(error: unknown, importId: string) {
  if (error instanceof DomainError) {
    return { code: error.code, error: error.message, ...(error.details ? { details: error.details } : {}) };
  }
  if (error instanceof CommitOutcomeUnknown) {
    return {
      code: "outcome_unknown",
      error:
        "The database connection broke while the import's version was being committed: it may have been written. Look at the dataset's versions before importing the file again.",
    };
  }
  if (isDependencyUnavailable(error)) {
    return {
      code: "service_unavailable",
      error: "The database could not be reached; nothing was written. Upload the file again.",
    };
  }
  return { code: "internal_error", error: internalErrorMessage(`import id ${importId}`) };
}
