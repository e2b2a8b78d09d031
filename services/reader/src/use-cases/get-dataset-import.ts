import { DomainError, type Import, type OperationInput, type operations } from "@svc/contracts";
import { type Database, findDataset } from "@svc/db";
import type { Kysely } from "kysely";
import { findOptionalImport } from "../repositories/imports";

export async function getDatasetImport(
  db: Kysely<Database>,
  organizationId: string,
  { params }: OperationInput<typeof operations.getDatasetImport>,
): Promise<Import> {
  const dataset = await findDataset(db, { organizationId, ...params });
  const found = await findOptionalImport(db, dataset.id, params.importId);
  if (!found)
    throw new DomainError(
      "not_found",
      `Import "${params.importId}" not found in dataset "${params.datasetSlug}"`,
    );
  return found;
}
