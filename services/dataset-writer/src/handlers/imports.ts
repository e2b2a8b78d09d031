import { type Subscription, serveOperationSubject } from "@svc/bus";
import { importStartSchema, operations, validationError } from "@svc/contracts";
import { failAbandonedImports } from "../repositories/imports";
import type { WriterDeps } from "../service";
import { FileImports, importDatasetFile } from "../use-cases/import-dataset-file";

/** An import nothing has been heard of for this long lost its writer; it is failed and cleared. */
const DEFAULT_ABANDONED_MS = 60_000;

/** Internal: the gateway hands over an uploaded file (its name in the upload store) to import. */
export function importHandlers({ bus, db, logger, uploads, importAbandonedMs, copyFrom }: WriterDeps): {
  subscriptions: Subscription[];
  stop(): void;
} {
  const imports = uploads ? new FileImports({ db, uploads, logger, copyFrom }) : undefined;
  const abandonedMs = importAbandonedMs ?? DEFAULT_ABANDONED_MS;
  const sweep = () =>
    failAbandonedImports(db, abandonedMs)
      .then((count) => {
        if (count > 0) logger.warn({ count }, "failed imports whose writer stopped");
      })
      .catch((error: unknown) => logger.warn({ err: error }, "could not sweep abandoned imports"));
  void sweep();
  const timer = setInterval(sweep, Math.min(abandonedMs, DEFAULT_ABANDONED_MS));
  timer.unref();
  const subscriptions = [
    serveOperationSubject(bus, operations.importDatasetFile, logger, async (input, caller) => {
      const parsed = importStartSchema.safeParse(input);
      if (!parsed.success) throw validationError(parsed.error.issues, [], "Import request");
      if (!imports) throw new Error("imports need an upload store, and this writer has none");
      return importDatasetFile(imports, caller, parsed.data);
    }),
  ];
  return {
    subscriptions,
    stop: () => {
      clearInterval(timer);
    },
  };
}
