import type { DatasetRow, OperationInput, operations } from "@svc/contracts";
import { type Database, findDataset, visibilityOf } from "@svc/db";
import type { Kysely } from "kysely";
import { listColumns } from "../repositories/columns";
import { inSnapshot } from "../repositories/db";
import { findOptionalCurrentRow, findOptionalRowAtVersion } from "../repositories/rows";
import { rowNotFound, versionNotFound } from "./errors";
import { toDatasetRow } from "./visible-cells";

export async function getDatasetRow(
  db: Kysely<Database>,
  organizationId: string,
  { params, query }: OperationInput<typeof operations.getDatasetRow>,
): Promise<DatasetRow> {
  return inSnapshot(db, async (trx) => {
    const dataset = await findDataset(trx, { organizationId, ...params });
    const version = query.version ?? dataset.version;
    if (version > dataset.version) throw versionNotFound(version, dataset.version);
    const row =
      version === dataset.version
        ? await findOptionalCurrentRow(trx, dataset.id, params.rowId, version)
        : await findOptionalRowAtVersion(trx, dataset.id, params.rowId, version);
    if (!row) throw rowNotFound(params.rowId, params.datasetSlug, query.version);
    const visibility = visibilityOf(await listColumns(trx, dataset.id, { includeRemoved: false }));
    return toDatasetRow(dataset.id, row, visibility);
  });
}
