import { type Subscription, serveOperation } from "@svc/bus";
import { operations } from "@svc/contracts";
import type { ReaderDeps } from "../service";
import { getTrace } from "../use-cases/get-trace";
import { listTraces } from "../use-cases/list-traces";

export function serveTraces({ bus, db, logger }: ReaderDeps): Subscription[] {
  return [
    serveOperation(bus, operations.listTraces, logger, (input, caller) =>
      listTraces(db, caller.organizationId, input),
    ),
    serveOperation(bus, operations.getTrace, logger, (input, caller) =>
      getTrace(db, caller.organizationId, input),
    ),
  ];
}
