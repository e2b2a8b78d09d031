import { type Context, context as otel, ROOT_CONTEXT } from "@opentelemetry/api";
import { DomainError } from "@svc/contracts";
import { isDependencyUnavailable } from "@svc/db";
import { inBatchTrace, noteAppliedOneByOne } from "./group-commit-tracing";

/** How one item of a batch came out: its answer, or the error it is answered with. */
export type Outcome<R> = { ok: true; result: R } | { ok: false; error: unknown };

export interface GroupCommitOptions {
  /** The most items one transaction applies. */
  maxBatch: number;
  /** The most batch transactions running at once. */
  maxConcurrent: number;
  /**
   * Another transaction starts beside the running ones only when the newest of them has run this
   * long: a batch stuck behind a lock must not hold up the items of other datasets, but while
   * batches are quick, one at a time gathers the most items into each commit.
   */
  stallMs: number;
  /** The most items waiting for a transaction; beyond it an item is refused at once. */
  maxQueued: number;
  /**
   * How long the oldest waiting item may have waited: beyond it a new item is refused at once, since
   * it would wait longer still (the writer is behind), rather than be answered late.
   */
  maxQueueMs: number;
}

export const defaultGroupCommitOptions: GroupCommitOptions = {
  maxBatch: 512,
  maxConcurrent: 4,
  stallMs: 50,
  maxQueued: 4_096,
  maxQueueMs: 500,
};

/**
 * Where a queued item goes when a batch is taken: into the batch, into a later batch, or into a
 * later batch with every item queued after it.
 */
export type Admission = "take" | "defer" | "end";

/** What the items are and how a batch of them is applied: the rest is group commit's. */
export interface BatchRules<T, R> {
  /**
   * A judge for one new batch, asked about each queued item in arrival order until the batch is
   * full; it remembers the items it took.
   */
  admitter(): (item: T) => Admission;
  /**
   * Applies a batch in one transaction and answers each item, in order. Throws when the batch
   * failed as a whole.
   */
  apply(batch: T[]): Promise<Outcome<R>[]>;
}

interface Pending<T, R> {
  item: T;
  /** When it was queued (`now`'s clock). */
  queuedAt: number;
  /** When its requester stops waiting, in epoch milliseconds (see RequestContext's `deadline`). */
  deadline: number | undefined;
  /** The OpenTelemetry context of the request that submitted the item: its trace. */
  trace: Context;
  resolve(result: R): void;
  reject(error: unknown): void;
}

/**
 * Group commit. An item that arrives while no transaction runs starts one at once; the items that
 * queue up meanwhile go together in the next transaction, so that under load each commit carries
 * many items. Only when the running transaction stalls (a lock held elsewhere) does another start
 * beside it, up to `maxConcurrent`. Each item gets its own reply, sent only after the commit.
 *
 * A batch that fails as a whole (a deadlock, a serialization failure, a statement one item's data
 * breaks) is rolled back and its items are applied again one by one, so that one bad item fails
 * alone; only a database that cannot be reached fails them all at once (503, for the client to retry).
 * Which trace each batch runs in is group-commit-tracing's.
 */
export class GroupCommit<T, R> {
  private readonly queue: Pending<T, R>[] = [];
  private inFlight = 0;
  /** When the newest running transaction started. */
  private lastStartedAt = 0;
  private stallTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly rules: BatchRules<T, R>,
    private readonly options: GroupCommitOptions = defaultGroupCommitOptions,
    private readonly now: () => number = performance.now.bind(performance),
  ) {}

  /**
   * Queues an item and answers when its batch has committed. Refused at once (503) when the writer is
   * behind, unless it is a `resend`: a request sent again because an earlier try's outcome is unknown,
   * whose refusal would leave its client not knowing (they are few: the writes a dead replica held).
   * Dropped unapplied (504) if its deadline passes before a transaction takes it.
   */
  submit(
    item: T,
    { deadline, resend = false }: { deadline?: number | undefined; resend?: boolean } = {},
  ): Promise<R> {
    const refusal = resend ? undefined : this.refusal();
    if (refusal) return Promise.reject(refusal);
    return new Promise<R>((resolve, reject) => {
      this.queue.push({ item, queuedAt: this.now(), deadline, trace: otel.active(), resolve, reject });
      this.pump();
    });
  }

  /** Why a new item cannot wait its turn: the queue is full, or its oldest item has waited too long. */
  private refusal(): DomainError | undefined {
    const { maxQueued, maxQueueMs } = this.options;
    const oldest = this.queue[0];
    const waited = oldest ? this.now() - oldest.queuedAt : 0;
    if (this.queue.length < maxQueued && waited <= maxQueueMs) return undefined;
    return new DomainError(
      "service_unavailable",
      `The writer is behind: ${this.queue.length} ${this.queue.length === 1 ? "change is" : "changes are"} waiting, the oldest for ${Math.round(waited)} ms; retry after the Retry-After delay`,
    );
  }

  private pump(): void {
    while (this.queue.length > 0 && this.mayStart()) {
      const batch = this.take();
      this.inFlight++;
      this.lastStartedAt = this.now();
      // Out of the context of whichever request called pump(): each batch picks its own.
      void otel
        .with(ROOT_CONTEXT, () => inBatchTrace(batch, (alone) => this.run(batch, alone)))
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
    // Waiting items keep the process busy on their own; the timer must not keep it alive.
    this.stallTimer.unref();
  }

  /** The next batch, in arrival order: it ends when full, or where the rules' admitter ends it. */
  private take(): Pending<T, R>[] {
    const batch: Pending<T, R>[] = [];
    const rest: Pending<T, R>[] = [];
    const admit = this.rules.admitter();
    let ended = false;
    const now = Date.now();
    for (const pending of this.queue.splice(0)) {
      if (pending.deadline !== undefined && now >= pending.deadline) {
        pending.reject(deadlinePassed());
        continue;
      }
      ended ||= batch.length >= this.options.maxBatch;
      const admission: Admission = ended ? "end" : admit(pending.item);
      ended ||= admission === "end";
      if (admission === "take") batch.push(pending);
      else rest.push(pending);
    }
    this.queue.push(...rest);
    return batch;
  }

  /**
   * Applies a batch in one transaction and answers each item. When a batch of several fails as a
   * whole, its items are applied again one by one (each in the context `alone` gives it), in arrival
   * order, so that versions stay in that order per dataset.
   */
  private async run(batch: Pending<T, R>[], alone: (pending: Pending<T, R>) => Context): Promise<void> {
    let outcomes: Outcome<R>[];
    try {
      outcomes = await this.rules.apply(batch.map((pending) => pending.item));
    } catch (error) {
      if (batch.length === 1 || isDependencyUnavailable(error)) {
        for (const pending of batch) pending.reject(error);
        return;
      }
      noteAppliedOneByOne(error);
      for (const pending of batch) await otel.with(alone(pending), () => this.run([pending], alone));
      return;
    }
    outcomes.forEach((outcome, i) => {
      const pending = batch[i] as Pending<T, R>;
      if (outcome.ok) pending.resolve(outcome.result);
      else pending.reject(outcome.error);
    });
  }
}

/** Nobody waits for the answer any more: doing the work now would only delay the items still awaited. */
const deadlinePassed = () =>
  new DomainError(
    "upstream_timeout",
    "The change waited past its deadline before the writer could start it, and was not applied; retry shortly",
  );
