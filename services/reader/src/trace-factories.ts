import type { Cell } from "@svc/contracts";
import { type Database, jsonb } from "@svc/db";
import { makeTraces, nanosAt, type TraceSeed } from "@svc/testing";
import type { ProjectFixture } from "@svc/testing/datasets";
import type { Kysely } from "kysely";

/**
 * Traces written the way trace-ingest stores them: one `spans` row per span and one `traces` row with
 * the summary (`makeTraces` of @svc/testing). Times are milliseconds after `T0_MS`.
 */

export interface SpanSeed {
  spanId: string;
  parentSpanId?: string | null;
  name?: string;
  kind?: number;
  startMs: number;
  endMs: number;
  statusCode?: number;
  statusMessage?: string | null;
  attributes?: Record<string, Cell>;
  events?: { name: string; timeUnixNano: string; attributes: Record<string, Cell> }[];
  /** The facts the ingest reads from the attributes, given here as it would have stored them. */
  models?: string[];
  tokensInput?: number;
  tokensOutput?: number;
  costMicrocents?: number | null;
  input?: Cell;
  output?: Cell;
}

/** Inserts one trace summary and returns its id. */
export async function makeTrace(
  db: Kysely<Database>,
  project: ProjectFixture,
  seed: TraceSeed = {},
): Promise<string> {
  const [traceId] = await makeTraces(db, project.projectId, [seed]);
  return traceId as string;
}

/** Inserts the spans of a trace made by `makeTrace`. */
export async function makeSpans(
  db: Kysely<Database>,
  project: ProjectFixture,
  traceId: string,
  spans: readonly SpanSeed[],
): Promise<void> {
  await db
    .insertInto("spans")
    .values(
      spans.map((span) => ({
        project_id: project.projectId,
        trace_id: traceId,
        span_id: span.spanId,
        parent_span_id: span.parentSpanId ?? null,
        name: span.name ?? "span",
        kind: span.kind ?? 1,
        start_ns: nanosAt(span.startMs),
        end_ns: nanosAt(span.endMs),
        status_code: span.statusCode ?? 0,
        status_message: span.statusMessage ?? null,
        attributes: jsonb(span.attributes ?? {}),
        resource_attributes: jsonb({ "service.name": "support-bot" }),
        scope: jsonb({ name: "test-scope", version: "1.0.0" }),
        events: jsonb(span.events ?? []),
        links: jsonb([]),
        session_id: null,
        user_id: null,
        tags: jsonb([]),
        models: jsonb(span.models ?? []),
        tokens_input: span.tokensInput ?? 0,
        tokens_output: span.tokensOutput ?? 0,
        cost_microcents: span.costMicrocents ?? null,
        input: jsonb(span.input ?? null),
        output: jsonb(span.output ?? null),
      })),
    )
    .execute();
}
