import type { DatasetColumn, OperationInput, operations } from "@svc/contracts";
import { type Database, findDataset } from "@svc/db";
import type { Kysely } from "kysely";
import { listColumns } from "../repositories/columns";

/** The dataset's columns in display order; removed ones too, marked, when asked. */
export async function listDatasetColumns(
  db: Kysely<Database>,
  organizationId: string,
  { params, query }: OperationInput<typeof operations.listDatasetColumns>,
): Promise<{ columns: DatasetColumn[] }> {
  const dataset = await findDataset(db, { organizationId, ...params });
  return { columns: await listColumns(db, dataset.id, { includeRemoved: query.includeRemoved }) };
}
