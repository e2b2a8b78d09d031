import type { Subscription } from "@svc/bus";
import type { Operation, OperationInput, OperationOutput } from "@svc/contracts";
import type { Database } from "@svc/db";
import { serveOperation } from "@svc/service";
import type { Kysely } from "kysely";
import type { ReaderDeps } from "../deps";

/** A reader's use-case: it needs nothing of the caller but the organisation whose data it reads. */
export type Read<O extends Operation> = (
  db: Kysely<Database>,
  organizationId: string,
  input: OperationInput<O>,
) => Promise<OperationOutput<O>>;

/**
 * Serves `op` with `read`, for the organisation of whoever calls: on the read standby when there is
 * one and it has what the caller must see (see `ReadRouting`), else on the primary.
 */
export function serveRead<O extends Operation>(
  { bus, db, logger, reads }: ReaderDeps,
  op: O,
  read: Read<O>,
): Subscription {
  return serveOperation(bus, op, logger, (input, caller) =>
    reads
      ? reads.run(caller, (input as { params?: unknown }).params, (chosen) =>
          read(chosen, caller.organizationId, input),
        )
      : read(db, caller.organizationId, input),
  );
}
