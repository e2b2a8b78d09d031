import { type Subscription, serveSubject } from "@svc/bus";
import { exportChunkRequestSchema, subjects, validationError } from "@svc/contracts";
import type { ReaderDeps } from "../service";
import { exportChunk } from "../use-cases/export-dataset";
import { organizationOf } from "./context";

/** Internal: the gateway asks for an export piece by piece and streams the pieces to its client. */
export function exportHandlers({ bus, db, logger }: ReaderDeps): Subscription[] {
  return [
    serveSubject(bus, subjects.exports.chunk, logger, async (request) => {
      const organizationId = organizationOf(request.context);
      const parsed = exportChunkRequestSchema.safeParse(request.input);
      if (!parsed.success) throw validationError(parsed.error.issues, [], "Export request");
      return exportChunk(db, organizationId, parsed.data);
    }),
  ];
}
