import type { Subscription } from "@svc/bus";
import { operations } from "@svc/contracts";
import type { ReaderDeps } from "../service";
import { getTrace } from "../use-cases/get-trace";
import { listTraces } from "../use-cases/list-traces";
import { serveRead } from "./serve-read";

export function serveTraces(deps: ReaderDeps): Subscription[] {
  return [serveRead(deps, operations.listTraces, listTraces), serveRead(deps, operations.getTrace, getTrace)];
}
