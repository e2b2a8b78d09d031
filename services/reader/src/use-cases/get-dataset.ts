import type { Dataset, DatasetColumn, OperationInput, operations } from "@svc/contracts";
import { type Database, type DatasetRecord, findDataset } from "@svc/db";
import type { Kysely } from "kysely";
import { listColumns } from "../repositories/columns";

export async function getDataset(
  db: Kysely<Database>,
  organizationId: string,
  { params }: OperationInput<typeof operations.getDataset>,
): Promise<Dataset> {
  const dataset = await findDataset(db, { organizationId, ...params });
  return toDataset(dataset, await listColumns(db, dataset.id, { includeRemoved: false }));
}

/** The contract's dataset: its active columns in order, its current version and its rows at it. */
export function toDataset(dataset: DatasetRecord, columns: DatasetColumn[]): Dataset {
  return {
    id: dataset.id,
    organizationId: dataset.organizationId,
    projectId: dataset.projectId,
    slug: dataset.slug,
    name: dataset.name,
    description: dataset.description,
    columns,
    version: dataset.version,
    rows: dataset.rowCount,
    createdAt: dataset.createdAt.toISOString(),
    updatedAt: dataset.updatedAt.toISOString(),
  };
}
