import {
  DomainError,
  type OperationInput,
  operations,
  type RequestContext,
  type VersionResult,
} from "@svc/contracts";
import { type Database, runIdempotent } from "@svc/db";
import type { Kysely } from "kysely";
import { findDatasetForUpdate } from "../repositories/datasets";
import { findOptionalVersionId, restoreRows } from "../repositories/restore";
import { idempotencyOf, refOf, writeVersion } from "./versioning";

/**
 * Makes the dataset equal to an earlier version as one new version. Restoring the version the
 * dataset is already at changes nothing and answers with that version.
 */
export function restoreVersion(
  db: Kysely<Database>,
  context: RequestContext,
  input: OperationInput<typeof operations.restoreDatasetVersion>,
): Promise<VersionResult> {
  const { params } = input;
  return runIdempotent(db, idempotencyOf(context, operations.restoreDatasetVersion, input), async (trx) => {
    const dataset = await findDatasetForUpdate(trx, refOf(context, params));
    const targetId = await findOptionalVersionId(trx, dataset.id, params.version);
    if (!targetId || params.version > dataset.version) {
      throw new DomainError(
        "not_found",
        `Version ${params.version} does not exist; dataset "${params.datasetSlug}" has versions 1 to ${dataset.version}`,
      );
    }
    if (params.version === dataset.version) return { versionId: targetId, version: dataset.version };
    const { versionId, version } = await writeVersion(trx, context, params, async (target) => ({
      operation: "restore" as const,
      ...(await restoreRows(trx, target.datasetId, params.version, target.version)),
    }));
    return { versionId, version };
  });
}
