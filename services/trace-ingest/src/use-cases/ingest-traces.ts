import { DomainError, type IngestTracesResult, type OperationInput, operations } from "@svc/contracts";
import {
  type Database,
  findOptionalProjectId,
  type IdempotentCaller,
  idempotencyOf,
  runIdempotent,
} from "@svc/db";
import type { Kysely, Transaction } from "kysely";
import { spanFacts } from "../domain/gen-ai";
import { traceMetricDeltas } from "../domain/metrics";
import { receivedSpans } from "../domain/otlp";
import { priceTable, spanCost } from "../domain/prices";
import { summarizeTrace } from "../domain/summary";
import { listOrganizationPrices } from "../repositories/model-prices";
import { listSpanMessages, listSpanOutlines, type StoredSpan, upsertSpans } from "../repositories/spans";
import { addTraceMetricDeltas, listTraceMetricFacts } from "../repositories/trace-metrics";
import { lockTraces, type TraceSummaryRecord, updateTraceSummaries } from "../repositories/traces";

/**
 * Stores the spans of one OTLP export request and recomputes the summary of every trace they belong
 * to, in one transaction: the request is stored whole or not at all. The body was validated against
 * the OTLP schema before it got here, so every span has well-formed ids and times. With an
 * Idempotency-Key, a retry of the same request is answered without storing its spans again.
 */
export async function ingestTraces(
  db: Kysely<Database>,
  caller: IdempotentCaller,
  input: OperationInput<typeof operations.ingestTraces>,
): Promise<IngestTracesResult> {
  const { body, headers } = input;
  const projectId = await findOptionalProjectId(db, caller.organizationId, headers.xSvcProject);
  if (projectId === undefined) throw unknownProject(headers.xSvcProject);
  const received = receivedSpans(body);
  const scope = idempotencyOf(caller, operations.ingestTraces, input);
  if (received.length === 0 && !scope) return { partialSuccess: {} };
  const prices = priceTable(await listOrganizationPrices(db, caller.organizationId));
  const spans: StoredSpan[] = received.map((span) => {
    const facts = spanFacts(span);
    return { span, facts, costMicrocents: spanCost(facts, span.startNs, prices) };
  });
  return runIdempotent(db, scope, async (trx) => {
    if (spans.length > 0) await storeSpans(trx, projectId, spans);
    return { partialSuccess: {} };
  });
}

/** Spans name their project in a header, so the answer says which header to fix. */
const unknownProject = (projectSlug: string): DomainError =>
  new DomainError(
    "not_found",
    `Project "${projectSlug}" not found; set X-Svc-Project to the slug of one of your projects`,
    { project: projectSlug },
  );

/**
 * Upserts the spans, recomputes the summary of each trace they touch, and moves the metrics of those
 * traces from their old summaries to their new ones.
 */
async function storeSpans(trx: Transaction<Database>, projectId: string, spans: StoredSpan[]): Promise<void> {
  const traceIds = [...new Set(spans.map(({ span }) => span.traceId))].sort();
  await lockTraces(trx, projectId, traceIds);
  const before = await listTraceMetricFacts(trx, projectId, traceIds);
  await upsertSpans(trx, projectId, spans);
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
}
