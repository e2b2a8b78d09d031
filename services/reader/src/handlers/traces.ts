import { type Subscription, serveOperation } from "@svc/bus";
import { operations } from "@svc/contracts";
import type { ReaderDeps } from "../service";
import { getTrace } from "../use-cases/get-trace";
import { listTraces } from "../use-cases/list-traces";
import { organizationOf } from "./context";

export function traceHandlers({ bus, db, logger }: ReaderDeps): Subscription[] {
  return [
    serveOperation(bus, operations.listTraces, logger, (input, ctx) =>
      listTraces(db, organizationOf(ctx), input),
    ),
    serveOperation(bus, operations.getTrace, logger, (input, ctx) =>
      getTrace(db, organizationOf(ctx), input),
    ),
  ];
}
