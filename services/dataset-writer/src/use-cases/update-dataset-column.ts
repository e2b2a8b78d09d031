import { operations } from "@svc/contracts";
import { toContractColumn, updateColumn } from "../repositories/columns";
import { assertNameFree, columnChange, findColumn } from "./column-changes";

/** Renames a column: the one change of a column the API has. */
export const updateDatasetColumn = columnChange(
  operations.updateDatasetColumn,
  async (trx, datasetId, columns, { params, body }) => {
    const column = findColumn(columns, params.identifier, "active");
    assertNameFree(columns, body.name, column.identifier);
    await updateColumn(trx, datasetId, column.identifier, { name: body.name });
    return toContractColumn({ ...column, name: body.name });
  },
);
