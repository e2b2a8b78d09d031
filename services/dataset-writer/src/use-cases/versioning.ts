import { type Caller, newId, type VersionResult } from "@svc/contracts";
import { type Database, type DatasetRef, findDataset, type IdempotencyScope, runIdempotent } from "@svc/db";
import type { Kysely, Transaction } from "kysely";
import { changeRowCount, takeNextVersion } from "../repositories/datasets";
import { insertVersion } from "../repositories/rows";

type DatasetParams = { projectSlug: string; datasetSlug: string };
type VersionTarget = { datasetId: string; version: number };

export interface VersionWork {
  operation: "insert" | "update" | "delete" | "import" | "restore";
  rowsInserted?: number;
  rowsUpdated?: number;
  rowsDeleted?: number;
}

/** A version's work as written: `versionId` is null when the work changed nothing and made no version. */
export interface Written<T> {
  versionId: string | null;
  version: number;
  work: T;
}

/**
 * Thrown by `writeVersion` to roll back the transaction of a mutation that changed nothing (giving back
 * the version number it took); carries the answer to make at the dataset's current version.
 */
class NothingChanged extends Error {
  constructor(
    readonly ref: DatasetRef,
    readonly answerAt: (version: number) => unknown,
  ) {
    super("the mutation changed nothing");
  }
}

/**
 * Runs the transaction of a mutation that writes a version (`runIdempotent`'s: the request's key is
 * claimed in it, and its answer stored). When `writeVersion` found that the mutation changed nothing,
 * the transaction has rolled back, and the answer is the one `writeVersion` was given, made at the
 * dataset's current version; `mutate` returns what `writeVersion` answers.
 */
export async function versionTransaction<A>(
  db: Kysely<Database>,
  scope: IdempotencyScope | undefined,
  mutate: (trx: Transaction<Database>) => Promise<A>,
): Promise<A> {
  try {
    return await runIdempotent(db, scope, mutate);
  } catch (error) {
    if (!(error instanceof NothingChanged)) throw error;
    return error.answerAt((await findDataset(db, error.ref)).version) as A;
  }
}

export function refOf(caller: Caller, params: DatasetParams): DatasetRef {
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
 *
 * Given `answer` (what the use-case answers, from what was written), the mutation may change nothing:
 * when `work` inserted, updated and deleted no row, no version is made. The transaction, run by
 * `versionTransaction`, rolls back, and the answer has a null `versionId` and the current version.
 * Without `answer`, the version is made whatever `work` changed (a restore promises one).
 */
export function writeVersion<T extends VersionWork>(
  trx: Transaction<Database>,
  caller: Caller,
  params: DatasetParams,
  work: (target: VersionTarget) => Promise<T>,
): Promise<VersionResult & { work: T }>;
export function writeVersion<T extends VersionWork, A>(
  trx: Transaction<Database>,
  caller: Caller,
  params: DatasetParams,
  work: (target: VersionTarget) => Promise<T>,
  answer: (written: Written<T>) => A,
): Promise<A>;
export async function writeVersion<T extends VersionWork, A>(
  trx: Transaction<Database>,
  caller: Caller,
  params: DatasetParams,
  work: (target: VersionTarget) => Promise<T>,
  answer?: (written: Written<T>) => A,
): Promise<A | (VersionResult & { work: T })> {
  const ref = refOf(caller, params);
  const target = await takeNextVersion(trx, ref);
  const result = await work(target);
  const { rowsInserted = 0, rowsUpdated = 0, rowsDeleted = 0 } = result;
  if (answer && rowsInserted + rowsUpdated + rowsDeleted === 0) {
    throw new NothingChanged(ref, (version) => answer({ versionId: null, version, work: result }));
  }
  const versionId = newId();
  const rowCount = await changeRowCount(trx, target.datasetId, rowsInserted - rowsDeleted);
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
  const written = { versionId, version: target.version, work: result };
  return answer ? answer(written) : written;
}
