import type { Kysely, Transaction } from "kysely";
import { findOptionalProjectId } from "./datasets";
import type { Database } from "./schema";
import {
  addTraceMetricDeltas,
  claimProjectTraceFolds,
  claimTraceFolds,
  deleteTraceFolds,
  findOptionalFoldStart,
  listSpanMessages,
  listSpanOutlines,
  listTraceMetricFacts,
  type TraceSummaryRecord,
  updateTraceSummaries,
} from "./trace-folds";
import { traceMetricDeltas } from "./trace-metric-deltas";
import { summarizeTrace } from "./trace-summary";

/*
 * Folding traces (decision 0051): the ingest stores spans and marks their traces; a fold turns the
 * marks into the traces' summaries (`traces`) and their share of the metrics (`trace_metrics`).
 * trace-ingest folds in the background (fold-runner.ts), and every read of summaries or metrics
 * first folds its project's marks (`foldProjectTraces`), so a client lists what it has just sent.
 */

/** Traces a fold takes in one transaction: those of about two export requests, so that it stays short. */
export const FOLD_BATCH = 200;

/**
 * Folds up to `limit` marked traces of any projects, passing over marks another transaction holds.
 * Returns how many it folded: fewer than `limit` when it found no more.
 */
export async function foldMarkedTraces(db: Kysely<Database>, limit = FOLD_BATCH): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const folds = await claimTraceFolds(trx, limit);
    const byProject = new Map<string, string[]>();
    for (const { projectId, traceId } of folds) {
      const traceIds = byProject.get(projectId) ?? [];
      traceIds.push(traceId);
      byProject.set(projectId, traceIds);
    }
    // Projects in order (the claim's), so two folds lock metric rows in the same order.
    for (const [projectId, traceIds] of byProject) await foldTraces(trx, projectId, traceIds);
    return folds.length;
  });
}

/**
 * Folds every trace marked so far in the organisation's project of that slug (none when there is no
 * such project), waiting for folds elsewhere that hold some: what a read of the project's summaries
 * or metrics does first, on the primary. Marks made after it began are left to the background folds,
 * so that a read during a steady ingest into the project ends. Nothing to fold costs the project's
 * lookup and one index probe.
 */
export async function foldProjectTraces(
  db: Kysely<Database>,
  organizationId: string,
  projectSlug: string,
): Promise<void> {
  const projectId = await findOptionalProjectId(db, organizationId, projectSlug);
  if (projectId === undefined) return;
  const markedBy = await findOptionalFoldStart(db, projectId);
  if (markedBy === undefined) return;
  for (;;) {
    const folded = await db.transaction().execute(async (trx) => {
      const traceIds = await claimProjectTraceFolds(trx, projectId, { markedBy, limit: FOLD_BATCH });
      if (traceIds.length > 0) await foldTraces(trx, projectId, traceIds);
      return traceIds.length;
    });
    if (folded === 0) return;
  }
}

/**
 * Recomputes the summary of each trace from its stored spans and moves the metrics from the old
 * summaries to the new ones, then deletes the marks. The transaction holds the traces' marks, so no
 * other fold reads or writes them meanwhile; folding a trace again without new spans changes
 * nothing, since the metrics move by the difference between two summaries.
 */
async function foldTraces(trx: Transaction<Database>, projectId: string, traceIds: string[]): Promise<void> {
  const before = await listTraceMetricFacts(trx, projectId, traceIds);
  const outlines = await listSpanOutlines(trx, projectId, traceIds);
  const summaries = traceIds.map((traceId) => ({
    traceId,
    ...summarizeTrace(outlines.get(traceId) ?? []),
  }));
  const roots = summaries.flatMap(({ traceId, rootSpanId }) =>
    rootSpanId === null ? [] : [{ traceId, spanId: rootSpanId }],
  );
  const messages = await listSpanMessages(trx, projectId, roots);
  const records: TraceSummaryRecord[] = summaries.map((summary) => ({
    ...summary,
    input: messages.get(summary.traceId)?.input ?? null,
    output: messages.get(summary.traceId)?.output ?? null,
  }));
  await updateTraceSummaries(trx, projectId, records);
  const changes = records.map((record) => ({
    before: before.get(record.traceId) ?? null,
    after: {
      startNs: record.startNs,
      durationNs: record.durationNs,
      failed: record.errorCount > 0,
      rootSpanName: record.rootSpanName,
      models: record.models,
      tags: record.tags,
      tokensInput: record.tokensInput,
      tokensOutput: record.tokensOutput,
      costMicrocents: record.costTotalMicrocents,
    },
  }));
  await addTraceMetricDeltas(trx, projectId, traceMetricDeltas(changes));
  await deleteTraceFolds(trx, projectId, traceIds);
}
