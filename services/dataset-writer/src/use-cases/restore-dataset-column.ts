import { operations } from "@svc/contracts";
import { toContractColumn, updateColumn } from "../repositories/columns";
import { assertNameFree, assertRoomForColumn, columnChange, findColumn } from "./column-changes";

export const restoreDatasetColumn = columnChange(
  operations.restoreDatasetColumn,
  async (trx, datasetId, columns, { params }) => {
    const column = findColumn(columns, params.identifier, "any");
    if (!column.removed) return toContractColumn(column);
    assertNameFree(columns, column.name, column.identifier);
    if (column.kind === "custom") assertRoomForColumn(columns);
    await updateColumn(trx, datasetId, column.identifier, { removed: false });
    return toContractColumn({ ...column, removed: false });
  },
);
