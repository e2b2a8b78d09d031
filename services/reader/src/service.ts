import { type Bus, type Subscription, unsubscribeAll } from "@svc/bus";
import type { CopyTo, Database } from "@svc/db";
import type { Logger } from "@svc/telemetry";
import type { Kysely } from "kysely";
import { serveColumns } from "./handlers/columns";
import { serveDatasets } from "./handlers/datasets";
import { serveEvents } from "./handlers/events";
import { serveExports } from "./handlers/exports";
import { serveRows } from "./handlers/rows";
import { serveTraces } from "./handlers/traces";
import { serveVersions } from "./handlers/versions";
import type { ReadRouting } from "./read-routing";

export interface ReaderDeps {
  bus: Bus;
  db: Kysely<Database>;
  /** Exports read their rows with it (`DatabaseHandle.copyTo`). */
  copyTo: CopyTo;
  logger: Logger;
  /** Where reads run when there is a read standby (`DATABASE_READ_URL`); without it, all on `db`. */
  reads?: ReadRouting;
}

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
