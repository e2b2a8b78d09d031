import { type Caller, type OperationInput, type OperationOutput, operations } from "@svc/contracts";
import { type Database, idempotencyOf, runIdempotent } from "@svc/db";
import type { Kysely } from "kysely";
import { toApiKey } from "../domain/contract-views";
import { updateApiKeyName } from "../repositories/api-keys";

type UpdateApiKey = typeof operations.updateApiKey;

export async function updateApiKey(
  db: Kysely<Database>,
  caller: Caller,
  input: OperationInput<UpdateApiKey>,
): Promise<OperationOutput<UpdateApiKey>> {
  const { params, body } = input;
  return runIdempotent(db, idempotencyOf(caller, operations.updateApiKey, input), async (trx) =>
    toApiKey(await updateApiKeyName(trx, caller.organizationId, params.id, body.name)),
  );
}
