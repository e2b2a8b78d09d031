import { type Subscription, serveOperation } from "@svc/bus";
import { DomainError, operations, type RequestContext } from "@svc/contracts";
import type { TraceIngestDeps } from "../service";
import { ingestTraces } from "../use-cases/ingest-traces";

export function traceHandlers({ bus, db, logger }: TraceIngestDeps): Subscription[] {
  return [
    serveOperation(bus, operations.ingestTraces, logger, (input, ctx) =>
      ingestTraces(db, { organizationId: organizationOf(ctx), idempotencyKey: ctx.idempotencyKey }, input),
    ),
  ];
}

function organizationOf(context: RequestContext): string {
  if (context.organizationId === null) {
    throw new DomainError("unauthenticated", "This operation needs an API key");
  }
  return context.organizationId;
}
