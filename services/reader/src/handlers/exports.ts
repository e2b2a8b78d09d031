import type { Subscription } from "@svc/bus";
import { exportChunkRequestSchema, operations, validationError } from "@svc/contracts";
import { serveOperationSubject } from "@svc/service";
import type { ReaderDeps } from "../deps";
import { exportDataset } from "../use-cases/export-dataset";

/** Internal: the gateway asks for an export piece by piece and streams the pieces to its client. */
export function serveExports({ bus, db, copyTo, logger }: ReaderDeps): Subscription[] {
  return [
    serveOperationSubject(bus, operations.exportDataset, logger, async (input, caller) => {
      const parsed = exportChunkRequestSchema.safeParse(input);
      if (!parsed.success) throw validationError(parsed.error.issues, [], "Export request");
      return exportDataset({ db, copyTo }, caller.organizationId, parsed.data);
    }),
  ];
}
