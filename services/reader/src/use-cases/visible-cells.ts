import type { DatasetRow } from "@svc/contracts";
import { type Visibility, visibleCells } from "@svc/db";
import type { RowRecord } from "../repositories/rows";

export function toDatasetRow(datasetId: string, row: RowRecord, visibility: Visibility): DatasetRow {
  return {
    rowId: row.rowId,
    datasetId,
    ...visibleCells(row.cells, visibility),
    createdAt: row.createdAt.toISOString(),
    version: row.version,
  };
}
