import type { ExperimentResult } from "@svc/contracts";
import type { ResultRecord, StoredScore } from "../repositories/results";

/** A result as the contract shows it, with its scores by name. */
export function toResult(
  record: ResultRecord,
  scores: Record<string, StoredScore> | undefined,
): ExperimentResult {
  return {
    rowId: record.rowId,
    rowVersion: record.rowVersion,
    ...(record.input !== undefined ? { input: record.input } : {}),
    ...(record.expectedOutput !== undefined ? { expectedOutput: record.expectedOutput } : {}),
    output: record.output,
    traceId: record.traceId,
    latencyMs: record.latencyMs,
    tokens: record.tokens,
    costMicrocents: record.costMicrocents,
    error: record.error,
    carriedFrom: record.carriedFrom,
    scores: scores ?? {},
    createdAt: record.createdAt.toISOString(),
  };
}
