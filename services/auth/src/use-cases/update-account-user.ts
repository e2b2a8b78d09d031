import {
  type Caller,
  DomainError,
  type OperationInput,
  type OperationOutput,
  operations,
} from "@svc/contracts";
import { type Database, idempotencyOf, runIdempotent } from "@svc/db";
import type { Kysely } from "kysely";
import { updateUser } from "../repositories/users";

type UpdateAccountUser = typeof operations.updateAccountUser;

/**
 * A person sets their own name or address, from their own session only: an address signs its owner
 * in to every organisation they belong to, so no key of one organisation may change it.
 */
export async function updateAccountUser(
  db: Kysely<Database>,
  caller: Caller,
  input: OperationInput<UpdateAccountUser>,
): Promise<OperationOutput<UpdateAccountUser>> {
  const { actor } = caller;
  if (actor.kind !== "user") {
    throw new DomainError(
      "forbidden",
      "Only a person signed in as themselves may change their name or address; sign in to the web application with your sign-in link",
    );
  }
  return runIdempotent(db, idempotencyOf(caller, operations.updateAccountUser, input), (trx) =>
    updateUser(trx, actor.id, input.body, new Date()),
  );
}
