import { randomBytes } from "node:crypto";
import type { Cell } from "@svc/contracts";
import { type Database, jsonb, refillTraceMetrics } from "@svc/db";
import type { Kysely } from "kysely";

/** Trace times in the factories below are milliseconds after this instant. */
export const T0_MS = Date.UTC(2024, 4, 1, 12, 0, 0);
export const nanosAt = (ms: number): string => (BigInt(T0_MS + ms) * 1_000_000n).toString();
export const isoAt = (ms: number): string => new Date(T0_MS + ms).toISOString();
export const newTraceId = (): string => randomBytes(16).toString("hex");

/** What a trace's summary says; what is left out takes a plain default (one span, no usage). */
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

/** Trace summaries as trace-ingest stores them, all in one statement; returns their ids in order. */
export async function makeTraces(
  db: Kysely<Database>,
  projectId: string,
  seeds: readonly TraceSeed[],
): Promise<string[]> {
  const ids = seeds.map((seed) => seed.traceId ?? newTraceId());
  if (seeds.length === 0) return ids;
  await db
    .insertInto("traces")
    .values(
      seeds.map((seed, index) => {
        const startMs = seed.startMs ?? 0;
        const durationMs = seed.durationMs ?? 100;
        const tokensInput = seed.tokensInput ?? 0;
        const tokensOutput = seed.tokensOutput ?? 0;
        return {
          project_id: projectId,
          trace_id: ids[index] as string,
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
        };
      }),
    )
    .execute();
  // The ingest keeps a project's metrics as it stores traces; traces written here get theirs at once.
  await refillTraceMetrics(db, projectId);
  return ids;
}
