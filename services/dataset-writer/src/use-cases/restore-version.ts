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

/** A restore's answer, and whether it made a version (restoring the current version makes none). */
export interface RestoreOutcome {
  result: VersionResult;
  created: boolean;
}

/**
 * Makes the dataset equal to an earlier version as one new version. Restoring the version the
 * dataset is already at changes nothing, creates nothing, and answers with that version. The outcome
 * is what an Idempotency-Key stores, so a retry answers the same, `created` included.
 */
export function restoreVersion(
  db: Kysely<Database>,
  context: RequestContext,
  input: OperationInput<typeof operations.restoreDatasetVersion>,
): Promise<RestoreOutcome> {
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
    if (params.version === dataset.version) {
      return { result: { versionId: targetId, version: dataset.version }, created: false };
    }
    const { versionId, version } = await writeVersion(trx, context, params, async (target) => ({
      operation: "restore" as const,
      ...(await restoreRows(trx, target.datasetId, params.version, target.version)),
    }));
    return { result: { versionId, version }, created: true };
  });
}
