import type { Import } from "@svc/contracts";
import { type Database, importColumns, toImport } from "@svc/db";
import type { Kysely } from "kysely";

/** An import of a dataset, as a client polls it. */
export async function findOptionalImport(
  db: Kysely<Database>,
  datasetId: string,
  importId: string,
): Promise<Import | undefined> {
  const row = await db
    .selectFrom("imports")
    .select(importColumns)
    .where("dataset_id", "=", datasetId)
    .where("id", "=", importId)
    .executeTakeFirst();
  return row && toImport(row);
}
