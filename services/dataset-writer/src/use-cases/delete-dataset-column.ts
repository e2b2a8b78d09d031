import { operations } from "@svc/contracts";
import { updateColumn } from "../repositories/columns";
import { columnChange, findColumn } from "./column-changes";

/** Marks a column removed; its cells stay, and restoreDatasetColumn brings it back. */
export const deleteDatasetColumn = columnChange(
  operations.deleteDatasetColumn,
  async (trx, datasetId, columns, { params }) => {
    const column = findColumn(columns, params.identifier, "active");
    await updateColumn(trx, datasetId, column.identifier, { removed: true });
    return null;
  },
);
