import { type Caller, type OperationInput, type OperationOutput, operations } from "@svc/contracts";
import { type Database, idempotencyOf, runIdempotent } from "@svc/db";
import type { Kysely } from "kysely";
import { assertMayGrant } from "../domain/roles";
import { issueApiKey } from "./issue-api-key";

type CreateApiKey = typeof operations.createApiKey;

/**
 * With an Idempotency-Key, the answer (token included) is kept with the key for the retention period,
 * so that a client whose reply was lost gets the same token back: see docs/decisions/0002.
 */
export async function createApiKey(
  db: Kysely<Database>,
  caller: Caller,
  input: OperationInput<CreateApiKey>,
): Promise<OperationOutput<CreateApiKey>> {
  const { body } = input;
  assertMayGrant(caller.role, body.role, "key");
  return runIdempotent(db, idempotencyOf(caller, operations.createApiKey, input), (trx) =>
    issueApiKey(trx, { organizationId: caller.organizationId, name: body.name, role: body.role }),
  );
}
