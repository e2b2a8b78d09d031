import type { Subscription } from "@svc/bus";
import type { Operation } from "@svc/contracts";
import { operations } from "@svc/contracts";
import { foldProjectTraces } from "@svc/db";
import type { ReaderDeps } from "../deps";
import { getTrace } from "../use-cases/get-trace";
import { getTraceMetrics } from "../use-cases/get-trace-metrics";
import { listTraceSessions } from "../use-cases/list-trace-sessions";
import { listTraceUsers } from "../use-cases/list-trace-users";
import { listTraces } from "../use-cases/list-traces";
import { type Read, serveRead } from "./serve-read";

export function serveTraces(deps: ReaderDeps): Subscription[] {
  return [
    serveRead(deps, operations.listTraces, afterFolding(deps, listTraces)),
    serveRead(deps, operations.getTrace, afterFolding(deps, getTrace)),
    serveRead(deps, operations.getTraceMetrics, afterFolding(deps, getTraceMetrics)),
    serveRead(deps, operations.listTraceSessions, afterFolding(deps, listTraceSessions)),
    serveRead(deps, operations.listTraceUsers, afterFolding(deps, listTraceUsers)),
  ];
}

/**
 * A read of a project's trace summaries or metrics, once the traces marked in the project are folded
 * into them (decision 0051): a client sees the spans it sent, as when the ingest wrote the summaries
 * itself. The fold writes, so it runs on the primary, whichever database the read then runs on.
 */
function afterFolding<O extends Operation>({ db }: ReaderDeps, read: Read<O>): Read<O> {
  return async (chosen, organizationId, input) => {
    const { projectSlug } = (input as { params: { projectSlug: string } }).params;
    await foldProjectTraces(db, organizationId, projectSlug);
    return read(chosen, organizationId, input);
  };
}
