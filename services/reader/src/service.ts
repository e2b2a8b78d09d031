import { type Subscription, unsubscribeAll } from "@svc/bus";
import type { ReaderDeps } from "./deps";
import { serveColumns } from "./handlers/columns";
import { serveDatasets } from "./handlers/datasets";
import { serveEvents } from "./handlers/events";
import { serveExports } from "./handlers/exports";
import { serveRows } from "./handlers/rows";
import { serveTraces } from "./handlers/traces";
import { serveVersions } from "./handlers/versions";

/** Serves every dataset query on the bus. Returns a handle that stops serving. */
export function registerReader(deps: ReaderDeps): { stop(): void } {
  const subscriptions: Subscription[] = [
    ...serveDatasets(deps),
    ...serveColumns(deps),
    ...serveRows(deps),
    ...serveExports(deps),
    ...serveVersions(deps),
    ...serveEvents(deps),
    ...serveTraces(deps),
  ];
  return { stop: () => unsubscribeAll(subscriptions) };
}
