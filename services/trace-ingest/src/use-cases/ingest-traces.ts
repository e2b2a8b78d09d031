import type { IngestTracesResult, OperationInput, operations } from "@svc/contracts";
import type { Database } from "@svc/db";
import type { Kysely } from "kysely";
import { spanFacts } from "../domain/gen-ai";
import { receivedSpans } from "../domain/otlp";
import { summarizeTrace } from "../domain/summary";
import { findProjectId } from "../repositories/projects";
import { listSpanMessages, listSpanOutlines, type StoredSpan, upsertSpans } from "../repositories/spans";
import { lockTraces, type TraceSummaryRecord, updateTraceSummaries } from "../repositories/traces";

/**
 * Stores the spans of one OTLP export request and recomputes the summary of every trace they belong
 * to, in one transaction: the request is stored whole or not at all. The body was validated against
 * the OTLP schema before it got here, so every span has well-formed ids and times.
 */
export async function ingestTraces(
  db: Kysely<Database>,
  organizationId: string,
  { body, headers }: OperationInput<typeof operations.ingestTraces>,
): Promise<IngestTracesResult> {
  const projectId = await findProjectId(db, organizationId, headers.xSvcProject);
  const spans: StoredSpan[] = receivedSpans(body).map((span) => ({ ...span, ...spanFacts(span) }));
  if (spans.length === 0) return { partialSuccess: {} };
  const traceIds = [...new Set(spans.map((span) => span.traceId))].sort();

  await db.transaction().execute(async (trx) => {
    await lockTraces(trx, projectId, traceIds);
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
  });
  return { partialSuccess: {} };
}
