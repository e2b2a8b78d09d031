import type { Database } from "@svc/db";
import { type Kysely, sql } from "kysely";
import type { PriceEntry } from "../domain/prices";

const columns = [
  "id",
  "model",
  sql<string>`effective_from::text`.as("effective_from"),
  sql<string>`input_microcents_per_million::text`.as("input"),
  sql<string>`output_microcents_per_million::text`.as("output"),
  sql<string>`to_char(updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`.as("updated_at"),
] as const;

type PriceRow = {
  id: string;
  model: string;
  effective_from: string;
  input: string;
  output: string;
  updated_at: string;
};

const toEntry = (row: PriceRow): PriceEntry => ({
  id: row.id,
  model: row.model,
  effectiveFrom: row.effective_from,
  inputMicrocentsPerMillion: BigInt(row.input),
  outputMicrocentsPerMillion: BigInt(row.output),
  source: "organization",
  updatedAt: row.updated_at,
});

/** The organisation's own prices (not the shipped defaults). */
export async function listOrganizationPrices(
  db: Kysely<Database>,
  organizationId: string,
): Promise<PriceEntry[]> {
  const rows = await db
    .selectFrom("model_prices")
    .select(columns)
    .where("organization_id", "=", organizationId)
    .orderBy("model")
    .orderBy("effective_from")
    .execute();
  return rows.map(toEntry);
}

/** Sets the organisation's price of a model from a day, replacing the one it had for both. */
export async function upsertOrganizationPrice(
  db: Kysely<Database>,
  organizationId: string,
  price: Omit<PriceEntry, "source" | "updatedAt">,
): Promise<PriceEntry> {
  const row = await db
    .insertInto("model_prices")
    .values({
      id: price.id,
      organization_id: organizationId,
      model: price.model,
      effective_from: price.effectiveFrom,
      input_microcents_per_million: price.inputMicrocentsPerMillion.toString(),
      output_microcents_per_million: price.outputMicrocentsPerMillion.toString(),
    })
    .onConflict((oc) =>
      oc.columns(["organization_id", "model", "effective_from"]).doUpdateSet({
        input_microcents_per_million: sql.ref("excluded.input_microcents_per_million"),
        output_microcents_per_million: sql.ref("excluded.output_microcents_per_million"),
        updated_at: sql`now()`,
      }),
    )
    .returning(columns)
    .executeTakeFirstOrThrow();
  return toEntry(row);
}

/** Deletes one of the organisation's prices; false when it has none of that id. */
export async function deleteOrganizationPrice(
  db: Kysely<Database>,
  organizationId: string,
  priceId: string,
): Promise<boolean> {
  const result = await db
    .deleteFrom("model_prices")
    .where("organization_id", "=", organizationId)
    .where("id", "=", priceId)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}
