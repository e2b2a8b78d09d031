import type { BuiltinField } from "@svc/contracts";
import type { Database, Visibility } from "@svc/db";
import type { Kysely } from "kysely";

/** The dataset's active columns: which built-in cells and which custom cells a row shows. */
export async function listActiveColumns(db: Kysely<Database>, datasetId: string): Promise<Visibility> {
  const columns = await db
    .selectFrom("dataset_columns")
    .select(["identifier", "kind", "field"])
    .where("dataset_id", "=", datasetId)
    .where("removed_at", "is", null)
    .orderBy("position")
    .execute();
  return {
    fields: columns.flatMap((column) => (column.kind === "builtin" ? [column.field as BuiltinField] : [])),
    customIdentifiers: columns
      .filter((column) => column.kind === "custom")
      .map((column) => column.identifier),
  };
}
