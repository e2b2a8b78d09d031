import type { Subscription } from "@svc/bus";
import { operations } from "@svc/contracts";
import { serveOperationSubject } from "@svc/service";
import type { ReaderDeps } from "../deps";
import { watchDataset } from "../use-cases/watch-dataset";

/** Internal: the gateway asks for a dataset's versions after one it sent, to feed its live streams. */
export function serveEvents({ bus, db, logger }: ReaderDeps): Subscription[] {
  return [
    serveOperationSubject(bus, operations.watchDataset, logger, (input, caller) =>
      watchDataset(db, caller.organizationId, input),
    ),
  ];
}
