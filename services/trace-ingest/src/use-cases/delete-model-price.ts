import { type Caller, DomainError, type OperationInput, type operations } from "@svc/contracts";
import type { Database } from "@svc/db";
import type { Kysely } from "kysely";
import { deleteOrganizationPrice } from "../repositories/model-prices";

/** Deletes one of the organisation's prices; a shipped default stays (set a price over it instead). */
export async function deleteModelPrice(
  db: Kysely<Database>,
  caller: Caller,
  { params }: OperationInput<typeof operations.deleteModelPrice>,
): Promise<null> {
  if (params.priceId.startsWith("default:")) {
    throw new DomainError(
      "conflict",
      `"${params.priceId}" is a shipped default price and cannot be deleted; set a price for the same model and effectiveFrom to replace it`,
    );
  }
  if (!(await deleteOrganizationPrice(db, caller.organizationId, params.priceId))) {
    throw new DomainError(
      "not_found",
      `Model price "${params.priceId}" not found; list the model prices to see their ids`,
    );
  }
  return null;
}
