import { type Context, context as otel, ROOT_CONTEXT, type Span, trace } from "@opentelemetry/api";
import { isDependencyUnavailable } from "@svc/bus";
import {
  type Actor,
  type BuiltinField,
  DomainError,
  newId,
  type OperationInput,
  operations,
  type RequestContext,
  type VersionResult,
} from "@svc/contracts";
import {
  claimIdempotencyKeys,
  type Database,
  type IdempotencyScope,
  idempotencyKeyReused,
  releaseIdempotencyKeys,
  storeIdempotentResponses,
} from "@svc/db";
import type { Kysely, Transaction } from "kysely";
import type { ColumnRecord } from "../repositories/columns";
import type { DatasetRef } from "../repositories/datasets";
import {
  type EditWrite,
  type LockedDataset,
  lockDatasets,
  rowKey,
  writeEdits,
} from "../repositories/row-edits";
import { assertCellsAccepted, presentBuiltins } from "./column-check";
import { actorOf, idempotencyOf, refOf } from "./versioning";

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
 * Applies row edits with group commit. An edit that arrives while no transaction runs starts one at
 * once; the edits that queue up meanwhile go together, across datasets, in the next transaction, so
 * that under load each commit carries many edits. Only when the running transaction stalls (a lock
 * held elsewhere) does another start beside it, up to `maxConcurrent`. Each edit still gets its own version (per
 * dataset, in arrival order), its own revision and its own reply, sent only after the commit. An
 * edit that fails (unknown column, missing row, If-Match, a reused idempotency key) is answered with
 * its error and leaves no trace; the others proceed. A batch's statements are set-based, so it costs
 * the same few round trips whatever its size (four without idempotency keys).
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

  edit(context: RequestContext, input: EditInput): Promise<VersionResult> {
    return new Promise<VersionResult>((resolve, reject) => {
      this.queue.push({
        ref: refOf(context, input.params),
        input,
        actor: actorOf(context),
        scope: idempotencyOf(context, operations.updateDatasetRow, input),
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

  /** The next batch; a second edit with an idempotency key already in the batch waits for the next. */
  private take(): PendingEdit[] {
    const batch: PendingEdit[] = [];
    const keys = new Set<string>();
    const rest: PendingEdit[] = [];
    for (const edit of this.queue.splice(0)) {
      const key = edit.scope && `${edit.scope.organizationId}\0${edit.scope.key}`;
      if (batch.length >= this.options.maxBatch || (key !== undefined && keys.has(key))) rest.push(edit);
      else {
        batch.push(edit);
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
      outcomes = await this.db.transaction().execute((trx) => applyBatch(trx, batch));
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

async function applyBatch(trx: Transaction<Database>, batch: PendingEdit[]): Promise<Outcome[]> {
  const outcomes: (Outcome | undefined)[] = batch.map(() => undefined);
  const fail = (i: number, error: unknown) => {
    outcomes[i] = { ok: false, error };
  };

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
    else if (claim.kind === "reused") fail(i, idempotencyKeyReused(batch[i]?.scope?.key ?? ""));
    else claimedIndexes.add(i);
  });

  // Each dataset's rows that the batch's still open edits touch: their versions come with the lock.
  const rowIds = new Map<string, Set<string>>();
  for (const [i, edit] of batch.entries()) {
    if (outcomes[i]) continue;
    const key = refKey(edit.ref);
    rowIds.set(key, (rowIds.get(key) ?? new Set()).add(edit.input.params.rowId));
  }
  const uniqueRefs = [...new Map(batch.map((e) => [refKey(e.ref), e.ref])).values()];
  const locked = new Map<string, LockedDataset>();
  for (const dataset of await lockDatasets(trx, uniqueRefs, (ref) => [...(rowIds.get(refKey(ref)) ?? [])])) {
    locked.set(refKey(dataset.ref), dataset);
  }

  // Everything that can fail is decided before anything is written.
  const candidates: number[] = [];
  for (const [i, edit] of batch.entries()) {
    if (outcomes[i]) continue;
    const dataset = locked.get(refKey(edit.ref));
    if (!dataset) {
      fail(i, datasetNotFound(edit.ref));
      continue;
    }
    try {
      const { body } = edit.input;
      assertCellsAccepted(
        asColumns(dataset),
        presentBuiltins(body) as BuiltinField[],
        Object.keys(body.custom ?? {}),
      );
      candidates.push(i);
    } catch (error) {
      fail(i, error);
    }
  }
  const datasetOf = (i: number) => locked.get(refKey((batch[i] as PendingEdit).ref)) as LockedDataset;

  // Versions in arrival order per dataset; each row's If-Match sees the batch's earlier edits of it.
  const nextVersion = new Map([...locked.values()].map((d) => [d.datasetId, d.version]));
  const successes: { index: number; edit: EditWrite }[] = [];
  for (const i of candidates) {
    const edit = batch[i] as PendingEdit;
    const { datasetId, rowVersions } = datasetOf(i);
    const { rowId } = edit.input.params;
    const ifMatch = edit.input.headers.ifMatch;
    const current = rowVersions.get(rowId);
    if (current === undefined) {
      fail(i, new DomainError("not_found", `Row "${rowId}" not found`));
      continue;
    }
    if (ifMatch !== undefined && current !== ifMatch) {
      fail(
        i,
        new DomainError(
          "version_mismatch",
          `Row "${rowId}" was changed at version ${current}, not ${ifMatch}; read it again and retry`,
          { currentVersion: current, expectedVersion: ifMatch },
        ),
      );
      continue;
    }
    const version = (nextVersion.get(datasetId) ?? 0) + 1;
    nextVersion.set(datasetId, version);
    rowVersions.set(rowId, version);
    successes.push({
      index: i,
      edit: {
        datasetId,
        rowId,
        version,
        versionTo: null,
        isFirst: true,
        isLast: true,
        ...edit.input.body,
        custom: edit.input.body.custom ?? {},
        versionId: newId(),
        actor: edit.actor,
      },
    });
  }

  await writeEdits(trx, cumulate(successes.map((s) => s.edit)));
  for (const { index, edit } of successes) {
    outcomes[index] = { ok: true, result: { versionId: edit.versionId, version: edit.version } };
  }

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

/**
 * Chains the edits of each row: an edit's patch becomes the composition of the row's earlier edits in
 * the batch and its own (later cells win, custom cells merge as `||` would), it learns the version of
 * the row's next edit, and the row's first and last edits are marked.
 */
function cumulate(edits: readonly EditWrite[]): EditWrite[] {
  const previous = new Map<string, EditWrite>();
  return edits.map((edit) => {
    const key = rowKey(edit.datasetId, edit.rowId);
    const before = previous.get(key);
    const chained: EditWrite = before
      ? { ...pickCells(before), ...edit, custom: { ...before.custom, ...edit.custom }, isFirst: false }
      : edit;
    if (before) {
      before.versionTo = edit.version;
      before.isLast = false;
    }
    previous.set(key, chained);
    return chained;
  });
}

function pickCells(edit: EditWrite): Partial<EditWrite> {
  const cells: Partial<EditWrite> = {};
  for (const field of ["input", "output", "expectedOutput", "metadata"] as const) {
    if (field in edit) cells[field] = edit[field];
  }
  return cells;
}

const asColumns = (dataset: LockedDataset): ColumnRecord[] =>
  dataset.columns.map((c, position) => ({
    identifier: c.identifier,
    name: c.identifier,
    kind: c.kind,
    field: c.kind === "builtin" ? c.identifier : null,
    position,
    removed: c.removed,
  }));

const datasetNotFound = (ref: DatasetRef) =>
  new DomainError("not_found", `Dataset "${ref.datasetSlug}" not found in project "${ref.projectSlug}"`);
