import type { Bus, UploadStore } from "@svc/bus";
import type { CopyFrom, Database } from "@svc/db";
import type { Logger } from "@svc/telemetry";
import type { Kysely } from "kysely";
import type { GroupCommitOptions } from "./group-commit/group-commit";

/** What the dataset writer runs on; its handlers take it, and `registerDatasetWriter` serves them. */
export interface WriterDeps {
  bus: Bus;
  db: Kysely<Database>;
  logger: Logger;
  /** How row edits are grouped into transactions (see GroupCommit); the defaults otherwise. */
  groupCommit?: Partial<GroupCommitOptions>;
  /** Where uploaded files wait to be imported; without it, imports are refused. */
  uploads?: UploadStore;
  /** How long an import may go unheard of before it is taken for abandoned (its writer died). */
  importAbandonedMs?: number;
  /** The database's COPY, where it has one (PostgreSQL): imports stage their rows with it. */
  copyFrom?: CopyFrom | undefined;
}
