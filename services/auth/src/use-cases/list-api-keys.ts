import type { Caller, OperationOutput, operations } from "@svc/contracts";
import type { Database } from "@svc/db";
import type { Kysely } from "kysely";
import { toApiKey } from "../domain/contract-views";
import { listActiveApiKeys } from "../repositories/api-keys";

export async function listApiKeys(
  db: Kysely<Database>,
  caller: Caller,
): Promise<OperationOutput<typeof operations.listApiKeys>> {
  const keys = await listActiveApiKeys(db, caller.organizationId);
  return { apiKeys: keys.map(toApiKey) };
}
