import { type Caller, type OperationInput, type OperationOutput, operations } from "@svc/contracts";
import { type Database, idempotencyOf, runIdempotent } from "@svc/db";
import type { Kysely } from "kysely";
import { assertMayGrant } from "../domain/roles";
import { callerUserId } from "./caller-user";
import { issueApiKey, shownOnce } from "./issue-api-key";

type CreateApiKey = typeof operations.createApiKey;

/**
 * With an Idempotency-Key, a retry gets the first answer back without its token, which is stored
 * nowhere (only its hash, in the key): a token is shown once. See docs/decisions/0002.
 */
export async function createApiKey(
  db: Kysely<Database>,
  caller: Caller,
  input: OperationInput<CreateApiKey>,
): Promise<OperationOutput<CreateApiKey>> {
  const { body } = input;
  assertMayGrant(caller.role, body.role, "key");
  return runIdempotent(
    db,
    idempotencyOf(caller, operations.createApiKey, input),
    async (trx): Promise<OperationOutput<CreateApiKey>> =>
      issueApiKey(trx, {
        organizationId: caller.organizationId,
        name: body.name,
        role: body.role,
        // A key made with a key is its maker's too: the person stays traceable through the chain.
        createdByUserId: await callerUserId(trx, caller),
      }),
    shownOnce,
  );
}
