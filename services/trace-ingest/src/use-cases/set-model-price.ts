import { type Caller, type ModelPrice, newId, type OperationInput, type operations } from "@svc/contracts";
import type { Database } from "@svc/db";
import type { Kysely } from "kysely";
import { microcentsPerMillion, toModelPrice } from "../domain/prices";
import { upsertOrganizationPrice } from "../repositories/model-prices";

/** Sets the organisation's price of a model from a day on (today, UTC, unless it says). */
export async function setModelPrice(
  db: Kysely<Database>,
  caller: Caller,
  { body }: OperationInput<typeof operations.setModelPrice>,
): Promise<ModelPrice> {
  const entry = await upsertOrganizationPrice(db, caller.organizationId, {
    id: newId(),
    model: body.model,
    effectiveFrom: body.effectiveFrom ?? new Date().toISOString().slice(0, 10),
    inputMicrocentsPerMillion: microcentsPerMillion(body.inputUsdPerMillionTokens),
    outputMicrocentsPerMillion: microcentsPerMillion(body.outputUsdPerMillionTokens),
  });
  return toModelPrice(entry);
}
