import {
  type Caller,
  type DatasetRow,
  listCursors,
  type OperationInput,
  type operations,
  type Page,
} from "@svc/contracts";
import { type Database, visibleCells } from "@svc/db";
import type { Kysely } from "kysely";
import { z } from "zod";
import { listActiveColumns } from "../repositories/columns";
import { findExperiment } from "../repositories/experiments";
import { listPendingRows } from "../repositories/results";

const cursors = listCursors(z.object({ experimentId: z.string(), pendingAfter: z.string() }));

/**
 * The pinned version's rows without a result, in row id order, with the cells of the dataset's active
 * columns. The cursor is a row id, so rows recorded meanwhile drop out without shifting the pages.
 */
export async function listExperimentPendingRows(
  db: Kysely<Database>,
  caller: Caller,
  { params, query }: OperationInput<typeof operations.listExperimentPendingRows>,
): Promise<Page<DatasetRow>> {
  const experiment = await findExperiment(db, { organizationId: caller.organizationId, ...params });
  const cursor = cursors.read(query.cursor, (c) =>
    c.experimentId === experiment.id ? undefined : "was issued for another experiment's pending rows",
  );
  const [rows, columns] = await Promise.all([
    listPendingRows(
      db,
      { experimentId: experiment.id, datasetId: experiment.datasetId, version: experiment.version },
      { afterRowId: cursor?.pendingAfter, limit: query.limit + 1 },
    ),
    listActiveColumns(db, experiment.datasetId),
  ]);
  return cursors.page(
    rows,
    query.limit,
    (row): DatasetRow => ({
      rowId: row.rowId,
      datasetId: experiment.datasetId,
      ...visibleCells(row.cells, columns),
      createdAt: row.createdAt.toISOString(),
      version: row.version,
    }),
    (row) => ({ experimentId: experiment.id, pendingAfter: row.rowId }),
  );
}
