import { type Caller, type OperationInput, operations, type ScoreSource } from "@svc/contracts";
import { type Database, idempotencyOf, runIdempotent } from "@svc/db";
import type { Kysely } from "kysely";
import { bumpExperimentRevision } from "../repositories/compare";
import { findExperiment } from "../repositories/experiments";
import { listRowsWithResults, upsertScores } from "../repositories/results";
import { experimentFinished, invalidBody, unknownRows } from "./errors";

/** Scores from a person's session are theirs, whatever the body says. */
const PEOPLE = new Set(["session", "user"]);

/**
 * Adds scores to results, or to the experiment as a whole: each replaces the score of its name there.
 * All or nothing.
 */
export async function recordExperimentScores(
  db: Kysely<Database>,
  caller: Caller,
  input: OperationInput<typeof operations.recordExperimentScores>,
): Promise<{ recorded: number }> {
  const { params, body } = input;
  refuseRepeats(body.scores);
  return runIdempotent(db, idempotencyOf(caller, operations.recordExperimentScores, input), async (trx) => {
    const experiment = await findExperiment(
      trx,
      { organizationId: caller.organizationId, ...params },
      { lock: "share" },
    );
    if (experiment.status === "finished") throw experimentFinished(experiment.id);
    const rowIds = [
      ...new Set(body.scores.flatMap((score) => (score.rowId === undefined ? [] : [score.rowId]))),
    ];
    const withResults = await listRowsWithResults(trx, experiment.id, rowIds);
    const missing = rowIds.filter((rowId) => !withResults.has(rowId));
    if (missing.length > 0) {
      throw unknownRows(
        missing,
        `${missing.length === 1 ? "has" : "have"} no result in this experiment to score`,
      );
    }
    const person = PEOPLE.has(caller.actor.kind);
    await upsertScores(
      trx,
      experiment.id,
      body.scores.map((score) => ({
        rowId: score.rowId ?? "",
        name: score.name,
        value: score.value,
        source: person ? "human" : ((score.source ?? "code") as ScoreSource),
        comment: score.comment ?? null,
        actor: caller.actor,
      })),
    );
    await bumpExperimentRevision(trx, experiment.id);
    return { recorded: body.scores.length };
  });
}

/** Two scores of one name for one result in one request: which one was meant is anyone's guess. */
function refuseRepeats(scores: readonly { rowId?: string | undefined; name: string }[]): void {
  const seen = new Set<string>();
  scores.forEach((score, i) => {
    const key = `${score.rowId ?? ""}\0${score.name}`;
    if (seen.has(key)) {
      const target = score.rowId === undefined ? "the experiment" : `row "${score.rowId}"`;
      throw invalidBody(["scores", i, "name"], `"${score.name}" is given twice for ${target}`);
    }
    seen.add(key);
  });
}
