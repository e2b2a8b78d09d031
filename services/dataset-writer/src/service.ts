import { type Bus, type Subscription, serveSubject, type UploadStore, unsubscribeAll } from "@svc/bus";
import { subjects } from "@svc/contracts";
import type { CopyFrom, Database } from "@svc/db";
import type { Logger } from "@svc/telemetry";
import type { Kysely } from "kysely";
import { columnHandlers } from "./handlers/columns";
import { datasetHandlers } from "./handlers/datasets";
import { importHandlers } from "./handlers/imports";
import { rowHandlers } from "./handlers/rows";
import type { GroupCommitOptions } from "./use-cases/group-commit";

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

/** Serves every dataset mutation on the bus. Returns a handle that stops serving. */
export function registerDatasetWriter(deps: WriterDeps): { stop(): void } {
  const imports = importHandlers(deps);
  const subscriptions: Subscription[] = [
    ...datasetHandlers(deps),
    ...columnHandlers(deps),
    ...rowHandlers(deps),
    ...imports.subscriptions,
    serveSubject(deps.bus, subjects.writer.ping, deps.logger, async () => ({ service: "dataset-writer" })),
  ];
  return {
    stop: () => {
      unsubscribeAll(subscriptions);
      imports.stop();
    },
  };
}
