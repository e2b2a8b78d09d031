import { type Caller, type DatasetColumn, newId, type OperationInput, operations } from "@svc/contracts";
import type { Database } from "@svc/db";
import type { Kysely } from "kysely";
import { insertCustomColumn } from "../repositories/columns";
import { assertNameFree, withColumns } from "./column-changes";

export function createDatasetColumn(
  db: Kysely<Database>,
  caller: Caller,
  input: OperationInput<typeof operations.createDatasetColumn>,
): Promise<DatasetColumn> {
  const { body } = input;
  return withColumns(db, caller, operations.createDatasetColumn, input, async (trx, datasetId, columns) => {
    assertNameFree(columns, body.name);
    const identifier = newId();
    await insertCustomColumn(trx, { datasetId, identifier, name: body.name });
    return { identifier, name: body.name, source: { kind: "custom" } };
  });
}
