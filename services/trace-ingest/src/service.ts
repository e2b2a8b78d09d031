import { unsubscribeAll } from "@svc/bus";
import type { TraceIngestDeps } from "./deps";
import { serveTraces } from "./handlers/traces";

/** Serves OTLP span ingestion on the bus. Returns a handle that stops serving. */
export function registerTraceIngest(deps: TraceIngestDeps): { stop(): void } {
  const subscriptions = serveTraces(deps);
  return { stop: () => unsubscribeAll(subscriptions) };
}
