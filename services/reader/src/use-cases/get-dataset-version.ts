import type { DatasetVersion, OperationInput, operations } from "@svc/contracts";
import { type Database, findDataset } from "@svc/db";
import type { Kysely } from "kysely";
import { findOptionalVersion } from "../repositories/versions";
import { versionNotFound } from "./errors";

export async function getDatasetVersion(
  db: Kysely<Database>,
  organizationId: string,
  { params }: OperationInput<typeof operations.getDatasetVersion>,
): Promise<DatasetVersion> {
  const dataset = await findDataset(db, { organizationId, ...params });
  const version = await findOptionalVersion(db, dataset.id, params.version);
  if (!version) throw versionNotFound(params.version, dataset.version);
  return version;
}
