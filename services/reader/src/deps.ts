import type { Bus } from "@svc/bus";
import type { CopyTo, Database } from "@svc/db";
import type { Logger } from "@svc/telemetry";
import type { Kysely } from "kysely";
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
