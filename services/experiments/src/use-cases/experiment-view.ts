import type { Experiment } from "@svc/contracts";
import type { Database } from "@svc/db";
import type { Kysely } from "kysely";
import {
  type ExperimentRecord,
  type ExperimentTotals,
  listExperimentTotals,
} from "../repositories/experiments";

/** An experiment as the contract shows it: what was stored and what its results add up to. */
export function toExperiment(record: ExperimentRecord, totals: ExperimentTotals | undefined): Experiment {
  return {
    id: record.id,
    datasetId: record.datasetId,
    name: record.name,
    version: record.version,
    baseExperimentId: record.baseExperimentId,
    metadata: record.metadata as Experiment["metadata"],
    status: record.status,
    evaluators: record.evaluators,
    createdAt: record.createdAt.toISOString(),
    finishedAt: record.finishedAt?.toISOString() ?? null,
    actor: record.actor,
    rows: record.rowCount,
    results: totals?.results ?? 0,
    errors: totals?.errors ?? 0,
    carried: totals?.carried ?? 0,
    scores: totals?.scores ?? {},
  };
}

/** The experiments with their counts and summaries, read in two statements. */
export async function withTotals(
  db: Kysely<Database>,
  records: readonly ExperimentRecord[],
): Promise<Experiment[]> {
  const totals = await listExperimentTotals(
    db,
    records.map((record) => record.id),
  );
  return records.map((record) => toExperiment(record, totals.get(record.id)));
}
