import type { Bus } from "@svc/bus";
import type { Database } from "@svc/db";
import type { Logger } from "@svc/telemetry";
import type { Kysely } from "kysely";

/** What the experiments service takes from its process. */
export interface ExperimentsDeps {
  bus: Bus;
  db: Kysely<Database>;
  logger: Logger;
}
