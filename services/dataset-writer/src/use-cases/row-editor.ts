import { type Context, context as otel, ROOT_CONTEXT, type Span, trace } from "@opentelemetry/api";
import { isDependencyUnavailable } from "@svc/bus";
import {
  type Actor,
  type Caller,
  type Cell,
  DomainError,
  newId,
  type OperationInput,
  operations,
  type VersionResult,
} from "@svc/contracts";
import {
  claimIdempotencyKeys,
  type Database,
  type DatasetRef,
  datasetNotFound,
  type IdempotencyScope,
  idempotencyKeyReused,
  idempotencyOf,
  releaseIdempotencyKeys,
  storeIdempotentResponses,
} from "@svc/db";
import type { Kysely, Transaction } from "kysely";
import { applyEdits, type EditOutcome, type EditRequest } from "../repositories/row-edits";
import { cellsRejection, presentBuiltins } from "./column-check";
import { refOf } from "./versioning";

type EditInput = OperationInput<typeof operations.updateDatasetRow>;

interface PendingEdit {
  ref: DatasetRef;
  input: EditInput;
  actor: Actor;
  scope: IdempotencyScope | undefined;
  /** The OpenTelemetry context of the request that made the edit: its trace. */
  trace: Context;
  resolve(result: VersionResult): void;
  reject(error: unknown): void;
}

type Outcome = { ok: true; result: VersionResult } | { ok: false; error: unknown };

export interface RowEditorOptions {
  /** The most edits one transaction applies. */
  maxBatch: number;
  /** The most batch transactions running at once. */
  maxConcurrent: number;
  /**
   * Another transaction starts beside the running ones only when the newest of them has run this
   * long: a batch stuck behind a lock must not hold up the edits of other datasets, but while
   * batches are quick, one at a time gathers the most edits into each commit.
   */
  stallMs: number;
}

export const defaultRowEditorOptions: RowEditorOptions = { maxBatch: 512, maxConcurrent: 4, stallMs: 50 };

const TRACER = "@svc/dataset-writer";
export const BATCH_SPAN = "dataset-writer apply edit batch";
export const BATCHED_EDIT_SPAN = "dataset-writer apply batched edit";
export const BATCH_SIZE_ATTRIBUTE = "svc.batch.size";
/** Set on a batch span when the batch failed as a whole and its edits were applied one by one. */
export const ONE_BY_ONE_ATTRIBUTE = "svc.batch.applied_one_by_one";
/**
 * Added to the span a batch runs in each time its statement found a dataset changed while it waited
 * for the dataset's lock, wrote nothing, and had to run again.
 */
export const STALE_EVENT = "svc.batch.dataset_changed_during_lock_wait";

/**
 * Applies row edits with group commit. An edit that arrives while no transaction runs starts one at
 * once; the edits that queue up meanwhile go together, across datasets, in the next transaction, so
 * that under load each commit carries many edits. Only when the running transaction stalls (a lock
 * held elsewhere) does another start beside it, up to `maxConcurrent`. Each edit still gets its own version (per
 * dataset, in arrival order), its own revision and its own reply, sent only after the commit. An
 * edit that fails (unknown column, missing row, If-Match, a reused idempotency key) is answered with
 * its error and leaves no trace; the others proceed. A batch is one set-based statement whatever its
 * size (see `applyEdits`): one round trip to the database, in a transaction of its own; a batch with
 * idempotency keys adds the statements that claim and store them, in a transaction around it.
 *
 * A batch that fails as a whole (a deadlock, a serialization failure, a statement one edit's data
 * breaks) is rolled back and its edits are applied again one by one, so that one bad edit fails
 * alone; only a database that cannot be reached fails them all at once (503, for the client to retry).
 *
 * Tracing: a batch of one edit runs in its request's trace, as a transaction per request would. A
 * batch of several runs in a span of its own, linked to each member request's span; each member
 * request gets a child span linked back to the batch, so SQL never lands in another request's trace.
 */
export class RowEditor {
  private readonly queue: PendingEdit[] = [];
  private inFlight = 0;
  /** When the newest running transaction started. */
  private lastStartedAt = 0;
  private stallTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly options: RowEditorOptions = defaultRowEditorOptions,
    private readonly now: () => number = performance.now.bind(performance),
  ) {}

  edit(caller: Caller, input: EditInput): Promise<VersionResult> {
    return new Promise<VersionResult>((resolve, reject) => {
      this.queue.push({
        ref: refOf(caller, input.params),
        input,
        actor: caller.actor,
        scope: idempotencyOf(caller, operations.updateDatasetRow, input),
        trace: otel.active(),
        resolve,
        reject,
      });
      this.pump();
    });
  }

  private pump(): void {
    while (this.queue.length > 0 && this.mayStart()) {
      const batch = this.take();
      this.inFlight++;
      this.lastStartedAt = this.now();
      // Out of the context of whichever request called pump(): each batch picks its own.
      void otel
        .with(ROOT_CONTEXT, () => this.runTraced(batch))
        .finally(() => {
          this.inFlight--;
          this.pump();
        });
    }
    if (this.queue.length > 0 && this.inFlight < this.options.maxConcurrent) this.checkForStallLater();
  }

  /** One transaction whenever none runs; another beside them only once the newest has stalled. */
  private mayStart(): boolean {
    if (this.inFlight === 0) return true;
    if (this.inFlight >= this.options.maxConcurrent) return false;
    return this.now() - this.lastStartedAt >= this.options.stallMs;
  }

  private checkForStallLater(): void {
    if (this.stallTimer) return;
    const wait = Math.max(0, this.lastStartedAt + this.options.stallMs - this.now());
    this.stallTimer = setTimeout(() => {
      this.stallTimer = undefined;
      this.pump();
    }, Math.ceil(wait));
    // Waiting edits keep the process busy on their own; the timer must not keep it alive.
    this.stallTimer.unref();
  }

  /**
   * The next batch, in arrival order. It ends when full, and before an edit with If-Match on a row
   * the batch already edits: that edit's condition depends on the outcome of the earlier one, so it
   * is judged in the next batch. A second edit with an idempotency key already in the batch (a
   * retry) waits for the next batch too.
   */
  private take(): PendingEdit[] {
    const batch: PendingEdit[] = [];
    const keys = new Set<string>();
    const rows = new Set<string>();
    const rest: PendingEdit[] = [];
    let ended = false;
    for (const edit of this.queue.splice(0)) {
      const key = edit.scope && `${edit.scope.organizationId}\0${edit.scope.key}`;
      const row = `${refKey(edit.ref)}\0${edit.input.params.rowId}`;
      ended ||=
        batch.length >= this.options.maxBatch || (edit.input.headers.ifMatch !== undefined && rows.has(row));
      if (ended || (key !== undefined && keys.has(key))) rest.push(edit);
      else {
        batch.push(edit);
        rows.add(row);
        if (key !== undefined) keys.add(key);
      }
    }
    this.queue.push(...rest);
    return batch;
  }

  /** Runs a batch in the trace its edits call for (see the class comment). */
  private async runTraced(batch: PendingEdit[]): Promise<void> {
    const [only] = batch;
    if (only && batch.length === 1) return otel.with(only.trace, () => this.run(batch, () => only.trace));
    const links = batch.flatMap((edit) => {
      const span = trace.getSpanContext(edit.trace);
      return span ? [{ context: span }] : [];
    });
    // No member is traced: nothing to link, and the SQL spans would have no parent anyway.
    if (links.length === 0) return this.run(batch, (edit) => edit.trace);
    const tracer = trace.getTracer(TRACER);
    const attributes = { [BATCH_SIZE_ATTRIBUTE]: batch.length };
    const batchSpan = tracer.startSpan(BATCH_SPAN, { root: true, links, attributes }, ROOT_CONTEXT);
    const members = new Map<PendingEdit, Span>();
    for (const edit of batch) {
      if (!trace.getSpan(edit.trace)) continue;
      const span = tracer.startSpan(
        BATCHED_EDIT_SPAN,
        { links: [{ context: batchSpan.spanContext() }], attributes },
        edit.trace,
      );
      members.set(edit, span);
    }
    // An edit applied again on its own does so in its request's trace, under its member span.
    const alone = (edit: PendingEdit) => {
      const span = members.get(edit);
      return span ? trace.setSpan(edit.trace, span) : edit.trace;
    };
    try {
      await otel.with(trace.setSpan(ROOT_CONTEXT, batchSpan), () => this.run(batch, alone));
    } finally {
      for (const span of members.values()) span.end();
      batchSpan.end();
    }
  }

  /**
   * Applies a batch in one transaction and answers each edit. When a batch of several fails as a
   * whole, its edits are applied again one by one (each in the context `alone` gives it), in arrival
   * order, so that versions stay in that order per dataset.
   */
  private async run(batch: PendingEdit[], alone: (edit: PendingEdit) => Context): Promise<void> {
    let outcomes: Outcome[];
    try {
      outcomes = await applyBatch(this.db, batch);
    } catch (error) {
      if (batch.length === 1 || isDependencyUnavailable(error)) {
        for (const edit of batch) edit.reject(error);
        return;
      }
      const span = trace.getActiveSpan();
      span?.recordException(error instanceof Error ? error : String(error));
      span?.setAttribute(ONE_BY_ONE_ATTRIBUTE, true);
      for (const edit of batch) await otel.with(alone(edit), () => this.run([edit], alone));
      return;
    }
    outcomes.forEach((outcome, i) => {
      const edit = batch[i] as PendingEdit;
      if (outcome.ok) edit.resolve(outcome.result);
      else edit.reject(outcome.error);
    });
  }
}

const refKey = (ref: DatasetRef) => `${ref.organizationId}\0${ref.projectSlug}\0${ref.datasetSlug}`;

/**
 * Applies a batch: without idempotency keys, one statement on its own, which is its own transaction
 * (one round trip in all); with keys, or when that statement found a dataset changed while it waited
 * for its lock, a transaction around it (see `applyEdits`).
 */
async function applyBatch(db: Kysely<Database>, batch: PendingEdit[]): Promise<Outcome[]> {
  if (batch.every((edit) => !edit.scope)) {
    const applied = await applyEdits(db, batch.map(requestOf));
    if (applied !== "stale") return batch.map((edit, i) => outcomeOf(edit, applied[i] as EditOutcome));
    trace.getActiveSpan()?.addEvent(STALE_EVENT);
  }
  return db.transaction().execute((trx) => applyInTransaction(trx, batch));
}

async function applyInTransaction(trx: Transaction<Database>, batch: PendingEdit[]): Promise<Outcome[]> {
  const outcomes: (Outcome | undefined)[] = batch.map(() => undefined);

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
    trace.getActiveSpan()?.addEvent(STALE_EVENT);
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
  return outcomes as Outcome[];
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

function outcomeOf(edit: PendingEdit, outcome: EditOutcome): Outcome {
  const { rowId } = edit.input.params;
  switch (outcome.status) {
    case "applied":
      // The id `requestOf` gave the edit is the one its version record got.
      return { ok: true, result: { versionId: outcome.versionId, version: outcome.version } };
    case "dataset_not_found":
      return { ok: false, error: datasetNotFound(edit.ref) };
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
      return { ok: false, error: new DomainError("not_found", `Row "${rowId}" not found`) };
    case "version_mismatch": {
      const expected = edit.input.headers.ifMatch;
      const error = new DomainError(
        "version_mismatch",
        `Row "${rowId}" was changed at version ${outcome.current}, not ${expected}; read it again and retry`,
        { currentVersion: outcome.current, expectedVersion: expected },
      );
      return { ok: false, error };
    }
  }
}
