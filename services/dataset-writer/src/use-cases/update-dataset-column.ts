import { type Caller, type DatasetColumn, type OperationInput, operations } from "@svc/contracts";
import type { Database } from "@svc/db";
import type { Kysely } from "kysely";
import { toContractColumn, updateColumn } from "../repositories/columns";
import { assertNameFree, findColumn, withColumns } from "./column-changes";

/** Renames a column: the one change of a column the API has. */
export function updateDatasetColumn(
  db: Kysely<Database>,
  caller: Caller,
  input: OperationInput<typeof operations.updateDatasetColumn>,
): Promise<DatasetColumn> {
  const { params, body } = input;
  return withColumns(db, caller, operations.updateDatasetColumn, input, async (trx, datasetId, columns) => {
    const column = findColumn(columns, params.identifier, "active");
    assertNameFree(columns, body.name, column.identifier);
    await updateColumn(trx, datasetId, column.identifier, { name: body.name });
    return toContractColumn({ ...column, name: body.name });
  });
}
