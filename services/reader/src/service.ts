import { type Bus, type Subscription, serveSubject, unsubscribeAll } from "@svc/bus";
import { subjects } from "@svc/contracts";
import type { Database } from "@svc/db";
import type { Logger } from "@svc/telemetry";
import type { Kysely } from "kysely";
import { columnHandlers } from "./handlers/columns";
import { datasetHandlers } from "./handlers/datasets";
import { exportHandlers } from "./handlers/exports";
import { rowHandlers } from "./handlers/rows";
import { traceHandlers } from "./handlers/traces";
import { versionHandlers } from "./handlers/versions";

export interface ReaderDeps {
  bus: Bus;
  db: Kysely<Database>;
  logger: Logger;
}

/** Serves every dataset query on the bus. Returns a handle that stops serving. */
export function registerReader(deps: ReaderDeps): { stop(): void } {
  const subscriptions: Subscription[] = [
    serveSubject(deps.bus, subjects.reader.ping, deps.logger, async () => ({ service: "reader" })),
    ...datasetHandlers(deps),
    ...columnHandlers(deps),
    ...rowHandlers(deps),
    ...exportHandlers(deps),
    ...versionHandlers(deps),
    ...traceHandlers(deps),
  ];
  return { stop: () => unsubscribeAll(subscriptions) };
}
