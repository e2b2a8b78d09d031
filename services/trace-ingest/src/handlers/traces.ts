import { type Subscription, serveOperation } from "@svc/bus";
import { operations } from "@svc/contracts";
import type { TraceIngestDeps } from "../service";
import { ingestTraces } from "../use-cases/ingest-traces";

export function serveTraces({ bus, db, logger }: TraceIngestDeps): Subscription[] {
  return [
    serveOperation(bus, operations.ingestTraces, logger, (input, caller) => ingestTraces(db, caller, input)),
  ];
}
