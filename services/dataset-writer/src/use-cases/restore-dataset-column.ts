import { type Caller, type DatasetColumn, type OperationInput, operations } from "@svc/contracts";
import type { Database } from "@svc/db";
import type { Kysely } from "kysely";
import { toContractColumn, updateColumn } from "../repositories/columns";
import { assertNameFree, findColumn, withColumns } from "./column-changes";

export function restoreDatasetColumn(
  db: Kysely<Database>,
  caller: Caller,
  input: OperationInput<typeof operations.restoreDatasetColumn>,
): Promise<DatasetColumn> {
  return withColumns(db, caller, operations.restoreDatasetColumn, input, async (trx, datasetId, columns) => {
    const column = findColumn(columns, input.params.identifier, "any");
    if (!column.removed) return toContractColumn(column);
    assertNameFree(columns, column.name, column.identifier);
    await updateColumn(trx, datasetId, column.identifier, { removed: false });
    return toContractColumn({ ...column, removed: false });
  });
}
