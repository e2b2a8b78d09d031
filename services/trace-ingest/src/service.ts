import { unsubscribeAll } from "@svc/bus";
import type { TraceIngestDeps } from "./deps";
import { serveTraces } from "./handlers/traces";
import { startFoldRunner } from "./jobs/fold-runner";

/**
 * Serves OTLP span ingestion on the bus, and folds the traces it marks into their summaries and
 * metrics in the background. Returns a handle that stops both.
 */
export function registerTraceIngest(deps: TraceIngestDeps): { stop(): void } {
  const folds = startFoldRunner(deps);
  const subscriptions = serveTraces(deps, folds);
  return {
    stop: () => {
      unsubscribeAll(subscriptions);
      folds.stop();
    },
  };
}
