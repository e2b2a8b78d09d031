import { randomBytes } from "node:crypto";
import type { Cell } from "@svc/contracts";
import { type Database, jsonb } from "@svc/db";
import type { Kysely } from "kysely";
import type { ProjectFixture } from "./test-factories";

/**
 * Traces written the way trace-ingest stores them: one `spans` row per span and one `traces` row with
 * the summary. Times are milliseconds after a fixed instant.
 */

export const T0_MS = Date.UTC(2024, 4, 1, 12, 0, 0);
export const nanosAt = (ms: number): string => (BigInt(T0_MS + ms) * 1_000_000n).toString();
export const isoAt = (ms: number): string => new Date(T0_MS + ms).toISOString();
export const newTraceId = (): string => randomBytes(16).toString("hex");

export interface TraceSeed {
  traceId?: string;
  startMs?: number;
  durationMs?: number;
  spanCount?: number;
  errorCount?: number;
  rootSpanName?: string | null;
  sessionId?: string | null;
  userId?: string | null;
  tags?: string[];
  models?: string[];
  tokensInput?: number;
  tokensOutput?: number;
  costTotalMicrocents?: number;
  input?: Cell;
  output?: Cell;
}

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
}

/** Inserts one trace summary and returns its id. */
export async function makeTrace(db: Kysely<Database>, project: ProjectFixture, seed: TraceSeed = {}) {
  const traceId = seed.traceId ?? newTraceId();
  const startMs = seed.startMs ?? 0;
  const durationMs = seed.durationMs ?? 100;
  const tokensInput = seed.tokensInput ?? 0;
  const tokensOutput = seed.tokensOutput ?? 0;
  await db
    .insertInto("traces")
    .values({
      project_id: project.projectId,
      trace_id: traceId,
      span_count: seed.spanCount ?? 1,
      error_count: seed.errorCount ?? 0,
      start_ns: nanosAt(startMs),
      end_ns: nanosAt(startMs + durationMs),
      duration_ns: (BigInt(durationMs) * 1_000_000n).toString(),
      root_span_id: null,
      root_span_name: seed.rootSpanName === undefined ? "root" : seed.rootSpanName,
      session_id: seed.sessionId ?? null,
      user_id: seed.userId ?? null,
      tags: jsonb(seed.tags ?? []),
      models: jsonb(seed.models ?? []),
      tokens_input: tokensInput,
      tokens_output: tokensOutput,
      tokens_total: tokensInput + tokensOutput,
      cost_total_microcents: seed.costTotalMicrocents ?? 0,
      input: jsonb(seed.input ?? null),
      output: jsonb(seed.output ?? null),
    })
    .execute();
  return traceId;
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
        models: jsonb([]),
        tokens_input: 0,
        tokens_output: 0,
        cost_microcents: 0,
        input: jsonb(null),
        output: jsonb(null),
      })),
    )
    .execute();
}
