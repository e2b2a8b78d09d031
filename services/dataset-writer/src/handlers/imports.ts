import type { Subscription } from "@svc/bus";
import { importStartSchema, operations, validationError } from "@svc/contracts";
import { serveOperationSubject } from "@svc/service";
import type { WriterDeps } from "../deps";
import { ImportJobs } from "../jobs/import-jobs";
import { importDatasetFile } from "../use-cases/import-dataset-file";
import { announcer } from "./version-events";

/** Internal: the gateway hands over an uploaded file (its name in the upload store) to import. */
export function serveImports({ bus, db, logger, uploads, copyFrom }: WriterDeps): Subscription[] {
  const deps = uploads && {
    db,
    uploads,
    copyFrom,
    jobs: new ImportJobs({ db, uploads, logger }),
    versionWritten: announcer(bus, logger),
  };
  return [
    serveOperationSubject(bus, operations.importDatasetFile, logger, async (input, caller) => {
      const parsed = importStartSchema.safeParse(input);
      if (!parsed.success) throw validationError(parsed.error.issues, [], "Import request");
      if (!deps) throw new Error("imports need an upload store, and this writer has none");
      return importDatasetFile(deps, caller, parsed.data);
    }),
  ];
}
