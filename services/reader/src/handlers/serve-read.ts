import { type Subscription, serveOperation } from "@svc/bus";
import type { Operation, OperationInput, OperationOutput } from "@svc/contracts";
import type { Database } from "@svc/db";
import type { Kysely } from "kysely";
import type { ReaderDeps } from "../service";

/** A reader's use-case: it needs nothing of the caller but the organisation whose data it reads. */
type Read<O extends Operation> = (
  db: Kysely<Database>,
  organizationId: string,
  input: OperationInput<O>,
) => Promise<OperationOutput<O>>;

/** Serves `op` with `read`, for the organisation of whoever calls. */
export function serveRead<O extends Operation>(
  { bus, db, logger }: ReaderDeps,
  op: O,
  read: Read<O>,
): Subscription {
  return serveOperation(bus, op, logger, (input, caller) => read(db, caller.organizationId, input));
}
