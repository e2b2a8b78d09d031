import type { Caller, ModelPriceList } from "@svc/contracts";
import type { Database } from "@svc/db";
import type { Kysely } from "kysely";
import { priceTable, toModelPrice } from "../domain/prices";
import { listOrganizationPrices } from "../repositories/model-prices";

/** The organisation's price table: the shipped defaults with its own prices over them. */
export async function listModelPrices(db: Kysely<Database>, caller: Caller): Promise<ModelPriceList> {
  const own = await listOrganizationPrices(db, caller.organizationId);
  return { modelPrices: priceTable(own).map(toModelPrice) };
}
