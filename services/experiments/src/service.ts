import { unsubscribeAll } from "@svc/bus";
import type { ExperimentsDeps } from "./deps";
import { serveExperiments } from "./handlers/experiments";

export type { ExperimentsDeps } from "./deps";

/** Serves experiments on the bus: their runs, results, scores and comparisons. Returns a handle that stops serving. */
export function registerExperiments(deps: ExperimentsDeps): { stop(): void } {
  const subscriptions = serveExperiments(deps);
  return { stop: () => unsubscribeAll(subscriptions) };
}
