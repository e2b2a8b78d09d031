import type { Dataset } from "@svc/contracts";
import type { Database, DatasetRecord } from "@svc/db";
import type { Kysely } from "kysely";
import { listColumns, toContractColumn } from "../repositories/columns";

/** A dataset as the contract answers with it: its record and its active columns. */
export async function toDataset(db: Kysely<Database>, record: DatasetRecord): Promise<Dataset> {
  const columns = await listColumns(db, record.id);
  return {
    id: record.id,
    organizationId: record.organizationId,
    projectId: record.projectId,
    slug: record.slug,
    name: record.name,
    description: record.description,
    columns: columns.filter((c) => !c.removed).map(toContractColumn),
    version: record.version,
    rows: record.rowCount,
    createdAt: record.createdAt.toISOString(),
    updatedAt: record.updatedAt.toISOString(),
  };
}
