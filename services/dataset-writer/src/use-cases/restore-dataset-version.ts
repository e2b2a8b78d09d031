import {
  type Caller,
  DomainError,
  type OperationInput,
  operations,
  type VersionResult,
} from "@svc/contracts";
import { type Database, findDatasetForUpdate, idempotencyOf, runIdempotent } from "@svc/db";
import type { Kysely } from "kysely";
import { findOptionalVersionId, restoreRows } from "../repositories/restore";
import { refOf, writeVersion } from "./versioning";

/** A restore's answer, and whether it made a version (restoring the current version makes none). */
export interface RestoreOutcome {
  result: VersionResult;
  created: boolean;
}

/**
 * Makes the dataset equal to an earlier version as one new version; version 0, the empty dataset it
 * was created as, deletes every row. Restoring the version the dataset is already at changes
 * nothing, creates nothing, and answers with that version. The outcome is what an Idempotency-Key
 * stores, so a retry answers the same, `created` included.
 */
export function restoreDatasetVersion(
  db: Kysely<Database>,
  caller: Caller,
  input: OperationInput<typeof operations.restoreDatasetVersion>,
): Promise<RestoreOutcome> {
  const { params } = input;
  return runIdempotent(db, idempotencyOf(caller, operations.restoreDatasetVersion, input), async (trx) => {
    const dataset = await findDatasetForUpdate(trx, refOf(caller, params));
    const target = params.version;
    const slug = params.datasetSlug;
    if (dataset.version === 0) {
      throw new DomainError(
        "not_found",
        `Dataset "${slug}" has no versions yet: there is nothing to restore`,
      );
    }
    // Version 0 is the empty dataset every dataset starts as: it has no record, but it can be restored.
    const targetId = target === 0 ? undefined : await findOptionalVersionId(trx, dataset.id, target);
    if (target > dataset.version || (target > 0 && !targetId)) {
      throw new DomainError(
        "not_found",
        `Version ${target} does not exist; dataset "${slug}" has versions 0 (empty) to ${dataset.version}`,
      );
    }
    if (target === dataset.version && targetId) {
      return { result: { versionId: targetId, version: dataset.version }, created: false };
    }
    const { versionId, version } = await writeVersion(trx, caller, params, async (written) => ({
      operation: "restore" as const,
      ...(await restoreRows(trx, written.datasetId, target, written.version)),
    }));
    return { result: { versionId, version }, created: true };
  });
}
