import type { Subscription } from "@svc/bus";
import { operations } from "@svc/contracts";
import type { ReaderDeps } from "../deps";
import { getTrace } from "../use-cases/get-trace";
import { getTraceMetrics } from "../use-cases/get-trace-metrics";
import { listTraceSessions } from "../use-cases/list-trace-sessions";
import { listTraceUsers } from "../use-cases/list-trace-users";
import { listTraces } from "../use-cases/list-traces";
import { serveRead } from "./serve-read";

export function serveTraces(deps: ReaderDeps): Subscription[] {
  return [
    serveRead(deps, operations.listTraces, listTraces),
    serveRead(deps, operations.getTrace, getTrace),
    serveRead(deps, operations.getTraceMetrics, getTraceMetrics),
    serveRead(deps, operations.listTraceSessions, listTraceSessions),
    serveRead(deps, operations.listTraceUsers, listTraceUsers),
  ];
}
