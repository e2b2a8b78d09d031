import type { Caller, OperationInput, OperationOutput, operations } from "@svc/contracts";
import type { Database } from "@svc/db";
import type { Kysely } from "kysely";
import { toApiKey } from "../domain/contract-views";
import { findActiveApiKey } from "../repositories/api-keys";

type GetApiKey = typeof operations.getApiKey;

export async function getApiKey(
  db: Kysely<Database>,
  caller: Caller,
  { params }: OperationInput<GetApiKey>,
): Promise<OperationOutput<GetApiKey>> {
  return toApiKey(await findActiveApiKey(db, caller.organizationId, params.id));
}
