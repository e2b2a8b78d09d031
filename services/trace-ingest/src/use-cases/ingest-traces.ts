import { DomainError, type IngestTracesResult, type OperationInput, operations } from "@svc/contracts";
import {
  type Database,
  findOptionalProjectId,
  type IdempotentCaller,
  idempotencyOf,
  markTraceFolds,
  runIdempotent,
} from "@svc/db";
import type { Kysely, Transaction } from "kysely";
import { spanFacts } from "../domain/gen-ai";
import { receivedSpans } from "../domain/otlp";
import { priceTable, spanCost } from "../domain/prices";
import { listOrganizationPrices } from "../repositories/model-prices";
import { type StoredSpan, upsertSpans } from "../repositories/spans";

/**
 * Stores the spans of one OTLP export request and marks the traces they belong to for folding into
 * their summaries and metrics, in one transaction: the request is stored whole or not at all. The
 * body was validated against the OTLP schema before it got here, so every span has well-formed ids
 * and times. With an Idempotency-Key, a retry of the same request is answered without storing its
 * spans again.
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
 * Upserts the spans and marks their traces for folding (decision 0051): the summaries and metrics
 * follow outside the request. Spans and marks in key order, so that two requests sharing some lock
 * them in the same order.
 */
async function storeSpans(trx: Transaction<Database>, projectId: string, spans: StoredSpan[]): Promise<void> {
  spans.sort(bySpanKey);
  await upsertSpans(trx, projectId, spans);
  const traceIds: string[] = [];
  for (const { span } of spans) if (span.traceId !== traceIds.at(-1)) traceIds.push(span.traceId);
  await markTraceFolds(trx, projectId, traceIds);
}

const bySpanKey = ({ span: a }: StoredSpan, { span: b }: StoredSpan): number =>
  a.traceId < b.traceId
    ? -1
    : a.traceId > b.traceId
      ? 1
      : a.spanId < b.spanId
        ? -1
        : a.spanId > b.spanId
          ? 1
          : 0;
