import { type Context, context as otel, ROOT_CONTEXT, type Span, trace } from "@opentelemetry/api";

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

/** A member of a batch: it carries the OpenTelemetry context of the request that made it. */
export interface Traced {
  trace: Context;
}

/**
 * Runs a batch in the trace its members call for. A batch of one runs in its request's trace, as a
 * transaction per request would. A batch of several runs in a span of its own, linked to each
 * member request's span; each member request gets a child span linked back to the batch, so SQL
 * never lands in another request's trace. `run` is given the context each member is applied in
 * when applied on its own.
 */
export async function inBatchTrace<M extends Traced>(
  batch: M[],
  run: (alone: (member: M) => Context) => Promise<void>,
): Promise<void> {
  const [only] = batch;
  if (only && batch.length === 1) return otel.with(only.trace, () => run(() => only.trace));
  const links = batch.flatMap((member) => {
    const span = trace.getSpanContext(member.trace);
    return span ? [{ context: span }] : [];
  });
  // No member is traced: nothing to link, and the SQL spans would have no parent anyway.
  if (links.length === 0) return run((member) => member.trace);
  const tracer = trace.getTracer(TRACER);
  const attributes = { [BATCH_SIZE_ATTRIBUTE]: batch.length };
  const batchSpan = tracer.startSpan(BATCH_SPAN, { root: true, links, attributes }, ROOT_CONTEXT);
  const members = new Map<M, Span>();
  for (const member of batch) {
    if (!trace.getSpan(member.trace)) continue;
    const span = tracer.startSpan(
      BATCHED_EDIT_SPAN,
      { links: [{ context: batchSpan.spanContext() }], attributes },
      member.trace,
    );
    members.set(member, span);
  }
  // A member applied again on its own runs in its request's trace, under its member span.
  const alone = (member: M) => {
    const span = members.get(member);
    return span ? trace.setSpan(member.trace, span) : member.trace;
  };
  try {
    await otel.with(trace.setSpan(ROOT_CONTEXT, batchSpan), () => run(alone));
  } finally {
    for (const span of members.values()) span.end();
    batchSpan.end();
  }
}

/** Marks the span the batch runs in: the batch failed as a whole, and its members go one by one. */
export function noteAppliedOneByOne(error: unknown): void {
  const span = trace.getActiveSpan();
  span?.recordException(error instanceof Error ? error : String(error));
  span?.setAttribute(ONE_BY_ONE_ATTRIBUTE, true);
}

/** Marks the span the batch runs in: its statement found a dataset changed while it waited for its lock. */
export function noteStale(): void {
  trace.getActiveSpan()?.addEvent(STALE_EVENT);
}
