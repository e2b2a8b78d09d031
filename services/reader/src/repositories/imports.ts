import type { Import } from "@svc/contracts";
import { importColumns, toImport } from "@svc/db";
import type { Db } from "./db";

/** An import of a dataset, as a client polls it. */
export async function findImport(db: Db, datasetId: string, importId: string): Promise<Import | undefined> {
  const row = await db
    .selectFrom("imports")
    .select(importColumns)
    .where("dataset_id", "=", datasetId)
    .where("id", "=", importId)
    .executeTakeFirst();
  return row && toImport(row);
}
