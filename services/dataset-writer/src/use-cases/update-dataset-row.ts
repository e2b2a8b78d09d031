import {
  type Actor,
  type Caller,
  type Cell,
  GATEWAY_KEY_PREFIX,
  newId,
  type OperationInput,
  operations,
  type VersionResult,
} from "@svc/contracts";
import {
  claimIdempotencyKeys,
  type Database,
  type DatasetRef,
  DatasetTakingImport,
  datasetNotFound,
  type IdempotencyScope,
  idempotencyKeyReused,
  idempotencyOf,
  releaseIdempotencyKeys,
  requestHashOf,
  storeIdempotentResponses,
} from "@svc/db";
import type { Kysely, Transaction } from "kysely";
import {
  type Admission,
  defaultGroupCommitOptions,
  GroupCommit,
  type GroupCommitOptions,
  type Outcome,
} from "../group-commit/group-commit";
import { noteStale } from "../group-commit/group-commit-tracing";
import {
  applyEdits,
  type EditOutcome,
  type EditRequest,
  isDeadlock,
  isKeyTaken,
} from "../repositories/row-edits";
import { cellsRejection, presentBuiltins } from "./column-check";
import { rowNotFound, rowVersionMismatch } from "./row-edit-errors";
import { refOf } from "./versioning";

type EditInput = OperationInput<typeof operations.updateDatasetRow>;

interface PendingEdit {
  ref: DatasetRef;
  input: EditInput;
  actor: Actor;
  scope: IdempotencyScope | undefined;
}

/** The row edits of a writer, waiting to be applied together (see GroupCommit). */
export type RowEdits = GroupCommit<PendingEdit, VersionResult>;

export function groupRowEdits(
  db: Kysely<Database>,
  options: GroupCommitOptions = defaultGroupCommitOptions,
): RowEdits {
  return new GroupCommit({ admitter: admitEdits, apply: (batch) => applyBatch(db, batch) }, options);
}

/**
 * Edits one row as one new version, applied with the edits made at the same time, across datasets,
 * in one transaction (group commit, see GroupCommit). Each edit still gets its own version (per
 * dataset, in arrival order), its own revision and its own reply. An edit that fails (unknown
 * column, missing row, If-Match, a reused idempotency key) is answered with its error and leaves no
 * trace; the others proceed. A batch is one set-based statement whatever its size (see
 * `applyEdits`): one round trip to the database, in a transaction of its own; a batch with
 * idempotency keys adds the statements that claim and store them, in a transaction around it.
 */
export function updateDatasetRow(edits: RowEdits, caller: Caller, input: EditInput): Promise<VersionResult> {
  return edits.submit(
    {
      ref: refOf(caller, input.params),
      input,
      actor: caller.actor,
      scope: idempotencyOf(caller, operations.updateDatasetRow, input),
    },
    { deadline: caller.deadline, resend: caller.resend === true },
  );
}

/**
 * A batch ends before an edit with If-Match on a row the batch already edits: that edit's condition
 * depends on the outcome of the earlier one, so it is judged in the next batch. A second edit with
 * an idempotency key already in the batch (a retry) waits for the next batch too.
 */
function admitEdits(): (edit: PendingEdit) => Admission {
  const keys = new Set<string>();
  const rows = new Set<string>();
  return (edit) => {
    const key = edit.scope && `${edit.scope.organizationId}\0${edit.scope.key}`;
    const row = `${refKey(edit.ref)}\0${edit.input.params.rowId}`;
    if (edit.input.headers.ifMatch !== undefined && rows.has(row)) return "end";
    if (key !== undefined && keys.has(key)) return "defer";
    rows.add(row);
    if (key !== undefined) keys.add(key);
    return "take";
  };
}

const refKey = (ref: DatasetRef) => `${ref.organizationId}\0${ref.projectSlug}\0${ref.datasetSlug}`;

/**
 * Applies a batch: without idempotency keys but the gateway's, one statement on its own, which is its
 * own transaction (one round trip in all) and stores each applied edit's key with its answer; with a
 * client's key, when a key was stored before (a retry: the statement then changes nothing), or when
 * the statement found a dataset changed while it waited for its lock, a transaction around it that
 * claims the keys first (see `applyInTransaction`).
 *
 * The one statement takes the dataset's lock before the key, the other mutations the key first. A
 * client may send one key with two requests, which then could deadlock (lock-races.test.ts); the
 * gateway gives each request a key of its own, and sends it to a second replica only as the same
 * request, on the same dataset. Two tries of one request may still meet, one here and one in a
 * transaction: PostgreSQL ends the deadlock by failing one of them, which changed nothing and runs
 * again in a transaction.
 */
async function applyBatch(db: Kysely<Database>, batch: PendingEdit[]): Promise<Outcome<VersionResult>[]> {
  const keyed = batch.some((edit) => edit.scope);
  // A deadlock that is not between two tries of one request is a failure of the batch as a whole,
  // which GroupCommit answers by applying its edits one by one.
  const ofTwoTries = (error: unknown) => keyed && isDeadlock(error);
  if (batch.every((edit) => !edit.scope || edit.scope.key.startsWith(GATEWAY_KEY_PREFIX))) {
    try {
      const applied = await applyEdits(db, batch.map(rememberedRequestOf));
      if (applied !== "stale") return batch.map((edit, i) => outcomeOf(edit, applied[i] as EditOutcome));
      noteStale();
    } catch (error) {
      if (!isKeyTaken(error) && !ofTwoTries(error)) throw error;
    }
  }
  const inTransaction = () => db.transaction().execute((trx) => applyInTransaction(trx, batch));
  return inTransaction().catch((error: unknown) => {
    if (ofTwoTries(error)) return inTransaction();
    throw error;
  });
}

/** An edit as `applyEdits` takes it, with its key to store if it is applied. */
function rememberedRequestOf(edit: PendingEdit): EditRequest {
  const request = requestOf(edit);
  if (edit.scope) {
    const { key, operationId } = edit.scope;
    request.idempotency = { key, operationId, requestHash: requestHashOf(edit.scope) };
  }
  return request;
}

async function applyInTransaction(
  trx: Transaction<Database>,
  batch: PendingEdit[],
): Promise<Outcome<VersionResult>[]> {
  const outcomes: (Outcome<VersionResult> | undefined)[] = batch.map(() => undefined);

  // Idempotency first: a key answered before is answered the same, whatever has changed since. Keys
  // are claimed before datasets are locked, the order runIdempotent takes them in for every other
  // mutation, so that an edit and an insert (say) can never each hold what the other waits for.
  const keyed = batch.flatMap((edit, i) => (edit.scope ? [i] : []));
  const claims = await claimIdempotencyKeys(
    trx,
    keyed.map((i) => batch[i]?.scope as IdempotencyScope),
  );
  const claimedIndexes = new Set<number>();
  claims.forEach((claim, k) => {
    const i = keyed[k] as number;
    if (claim.kind === "replay") outcomes[i] = { ok: true, result: claim.response as VersionResult };
    else if (claim.kind === "reused")
      outcomes[i] = { ok: false, error: idempotencyKeyReused(batch[i]?.scope?.key ?? "") };
    else claimedIndexes.add(i);
  });

  const open = batch.flatMap((_edit, i) => (outcomes[i] ? [] : [i]));
  const requests = open.map((i) => requestOf(batch[i] as PendingEdit));
  let applied = await applyEdits(trx, requests);
  // Stale only if it waited for a lock; the transaction holds them all now, so this run waits for none.
  if (applied === "stale") {
    noteStale();
    applied = await applyEdits(trx, requests);
  }
  if (applied === "stale") throw new Error("row edits: datasets changed while their locks were held");
  open.forEach((i, k) => {
    outcomes[i] = outcomeOf(batch[i] as PendingEdit, (applied as EditOutcome[])[k] as EditOutcome);
  });

  const answered = [...claimedIndexes].filter((i) => outcomes[i]?.ok);
  await storeIdempotentResponses(
    trx,
    answered.map((i) => {
      const scope = batch[i]?.scope as IdempotencyScope;
      return {
        organizationId: scope.organizationId,
        key: scope.key,
        response: (outcomes[i] as { result: VersionResult }).result,
      };
    }),
  );
  await releaseIdempotencyKeys(
    trx,
    [...claimedIndexes].filter((i) => !outcomes[i]?.ok).map((i) => batch[i]?.scope as IdempotencyScope),
  );
  return outcomes as Outcome<VersionResult>[];
}

function requestOf(edit: PendingEdit): EditRequest {
  const { body, headers, params } = edit.input;
  const builtins: EditRequest["builtins"] = {};
  // Present in a parsed JSON body, a cell is a JSON value (null included), never undefined.
  for (const field of presentBuiltins(body)) builtins[field] = body[field] as Cell;
  return {
    ref: edit.ref,
    rowId: params.rowId,
    ifMatch: headers.ifMatch,
    builtins,
    custom: body.custom ?? {},
    versionId: newId(),
    actor: edit.actor,
  };
}

function outcomeOf(edit: PendingEdit, outcome: EditOutcome): Outcome<VersionResult> {
  const { rowId } = edit.input.params;
  switch (outcome.status) {
    case "applied":
      // The id `requestOf` gave the edit is the one its version record got.
      return { ok: true, result: { versionId: outcome.versionId, version: outcome.version } };
    case "dataset_not_found":
      return { ok: false, error: datasetNotFound(edit.ref) };
    case "taking_import":
      return { ok: false, error: new DatasetTakingImport(edit.ref.datasetSlug, outcome.importId) };
    case "unknown_column": {
      const rejected = new Set(outcome.rejected);
      const { body } = edit.input;
      const error = cellsRejection(presentBuiltins(body), Object.keys(body.custom ?? {}), (key) =>
        rejected.has(key),
      );
      return {
        ok: false,
        error: error ?? new Error(`row edit: refused cells ${outcome.rejected.join(", ")}`),
      };
    }
    case "row_not_found":
      return { ok: false, error: rowNotFound({ rowId }) };
    case "version_mismatch":
      return { ok: false, error: rowVersionMismatch({ rowId }, outcome.current, edit.input.headers.ifMatch) };
  }
}
