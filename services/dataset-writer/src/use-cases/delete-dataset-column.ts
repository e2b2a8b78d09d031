import { type Caller, type OperationInput, operations } from "@svc/contracts";
import type { Database } from "@svc/db";
import type { Kysely } from "kysely";
import { updateColumn } from "../repositories/columns";
import { findColumn, withColumns } from "./column-changes";

/** Marks a column removed; its cells stay, and restoreDatasetColumn brings it back. */
export async function deleteDatasetColumn(
  db: Kysely<Database>,
  caller: Caller,
  input: OperationInput<typeof operations.deleteDatasetColumn>,
): Promise<null> {
  return withColumns(db, caller, operations.deleteDatasetColumn, input, async (trx, datasetId, columns) => {
    const column = findColumn(columns, input.params.identifier, "active");
    await updateColumn(trx, datasetId, column.identifier, { removed: true });
    return null;
  });
}
