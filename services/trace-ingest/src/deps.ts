import type { Bus } from "@svc/bus";
import type { Database } from "@svc/db";
import type { Logger } from "@svc/telemetry";
import type { Kysely } from "kysely";

export interface TraceIngestDeps {
  bus: Bus;
  db: Kysely<Database>;
  logger: Logger;
}
