import { type Bus, unsubscribeAll } from "@svc/bus";
import type { Database } from "@svc/db";
import type { Logger } from "@svc/telemetry";
import type { Kysely } from "kysely";
import { serveTraces } from "./handlers/traces";

export interface TraceIngestDeps {
  bus: Bus;
  db: Kysely<Database>;
  logger: Logger;
}

/** Serves OTLP span ingestion on the bus. Returns a handle that stops serving. */
export function registerTraceIngest(deps: TraceIngestDeps): { stop(): void } {
  const subscriptions = serveTraces(deps);
  return { stop: () => unsubscribeAll(subscriptions) };
}
