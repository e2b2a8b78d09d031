import { type Caller, newId, type VersionResult } from "@svc/contracts";
import { type Database, type DatasetRef, findDataset } from "@svc/db";
import type { Kysely, Transaction } from "kysely";
import { changeRowCount, takeNextVersion } from "../repositories/datasets";
import { insertVersion } from "../repositories/rows";

export interface VersionWork {
  operation: "insert" | "update" | "delete" | "import" | "restore";
  rowsInserted?: number;
  rowsUpdated?: number;
  rowsDeleted?: number;
}

/** Thrown inside a version's transaction to roll it back when the mutation turned out to change nothing. */
export class NothingChanged extends Error {}

/**
 * Runs `write`, whose transaction throws NothingChanged when the mutation changes nothing (rolling
 * back the version number it took): then the answer is `unchanged` at the dataset's current version.
 */
export async function orUnchanged<Written, Unchanged>(
  db: Kysely<Database>,
  ref: DatasetRef,
  write: () => Promise<Written>,
  unchanged: (version: number) => Unchanged,
): Promise<Written | Unchanged> {
  try {
    return await write();
  } catch (error) {
    if (!(error instanceof NothingChanged)) throw error;
    return unchanged((await findDataset(db, ref)).version);
  }
}

export function refOf(caller: Caller, params: { projectSlug: string; datasetSlug: string }): DatasetRef {
  return {
    organizationId: caller.organizationId,
    projectSlug: params.projectSlug,
    datasetSlug: params.datasetSlug,
  };
}

/**
 * Writes one mutation as one new dataset version inside `trx`: takes the next number (locking the
 * dataset until commit), lets `work` write the rows, and records the version with the dataset's row
 * count at it: the previous version's, plus the rows `work` inserted, less those it deleted.
 */
export async function writeVersion<T extends VersionWork>(
  trx: Transaction<Database>,
  caller: Caller,
  params: { projectSlug: string; datasetSlug: string },
  work: (target: { datasetId: string; version: number }) => Promise<T>,
): Promise<VersionResult & { work: T }> {
  const ref = refOf(caller, params);
  const target = await takeNextVersion(trx, ref);
  const result = await work(target);
  const versionId = newId();
  const rowCount = await changeRowCount(
    trx,
    target.datasetId,
    (result.rowsInserted ?? 0) - (result.rowsDeleted ?? 0),
  );
  await insertVersion(trx, {
    rowCount,
    id: versionId,
    datasetId: target.datasetId,
    version: target.version,
    operation: result.operation,
    actor: caller.actor,
    ...(result.rowsInserted !== undefined ? { rowsInserted: result.rowsInserted } : {}),
    ...(result.rowsUpdated !== undefined ? { rowsUpdated: result.rowsUpdated } : {}),
    ...(result.rowsDeleted !== undefined ? { rowsDeleted: result.rowsDeleted } : {}),
  });
  return { versionId, version: target.version, work: result };
}
