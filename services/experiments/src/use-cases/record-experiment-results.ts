import { type Caller, type OperationInput, operations, validationError } from "@svc/contracts";
import { type Database, idempotencyOf, runIdempotent } from "@svc/db";
import type { Kysely } from "kysely";
import { bumpExperimentRevision } from "../repositories/compare";
import { findExperiment } from "../repositories/experiments";
import { deleteRowScores, listPinnedRows, upsertResults, upsertScores } from "../repositories/results";
import { rulesOf } from "./compiled-rules";
import { experimentFinished, unknownRows } from "./errors";
import { ruleScoresOf } from "./rule-scores";

/**
 * Records a batch of results, all or nothing: each replaces the row's earlier result and its scores,
 * and is scored at once by the experiment's rules beside the runner's own scores.
 */
export async function recordExperimentResults(
  db: Kysely<Database>,
  caller: Caller,
  input: OperationInput<typeof operations.recordExperimentResults>,
): Promise<{ recorded: number }> {
  const { params, body } = input;
  return runIdempotent(db, idempotencyOf(caller, operations.recordExperimentResults, input), async (trx) => {
    // Shared: batches of one experiment go on side by side, and finishing it waits for them.
    const experiment = await findExperiment(
      trx,
      { organizationId: caller.organizationId, ...params },
      { lock: "share" },
    );
    if (experiment.status === "finished") throw experimentFinished(experiment.id);
    const rules = rulesOf(experiment);
    refuseScoresNamedAsRules(body.results, new Set(rules.map((rule) => rule.definition.name)));
    const rowIds = body.results.map((result) => result.rowId);
    const pinned = await listPinnedRows(trx, experiment, rowIds);
    const missing = rowIds.filter((rowId) => !pinned.has(rowId));
    if (missing.length > 0) {
      throw unknownRows(
        missing,
        `${missing.length === 1 ? "is" : "are"} not in the dataset at version ${experiment.version}`,
      );
    }
    const results = body.results.map((result) => ({
      rowId: result.rowId,
      rowVersion: pinned.get(result.rowId)?.rowVersion ?? 0,
      output: result.output,
      traceId: result.traceId ?? null,
      latencyMs: result.latencyMs ?? null,
      tokens: result.tokens ?? null,
      costMicrocents: result.costMicrocents ?? null,
      error: result.error ?? null,
    }));
    await upsertResults(trx, experiment.id, results);
    await deleteRowScores(trx, experiment.id, rowIds);
    const scores = body.results.flatMap((result, i) => [
      ...ruleScoresOf(
        rules,
        {
          ...(results[i] as (typeof results)[number]),
          expectedOutput: pinned.get(result.rowId)?.expectedOutput,
        },
        caller.actor,
      ),
      ...result.scores.map((score) => ({
        rowId: result.rowId,
        name: score.name,
        value: score.value,
        source: score.source,
        comment: score.comment ?? null,
        actor: caller.actor,
      })),
    ]);
    await upsertScores(trx, experiment.id, scores);
    await bumpExperimentRevision(trx, experiment.id);
    return { recorded: results.length };
  });
}

/** A runner's score may not take the name of one of the experiment's rules: one name, one judge. */
function refuseScoresNamedAsRules(
  results: readonly { scores: readonly { name: string }[] }[],
  ruleNames: ReadonlySet<string>,
): void {
  const issues = results.flatMap((result, i) =>
    result.scores.flatMap((score, j) =>
      ruleNames.has(score.name)
        ? [
            {
              code: "custom" as const,
              path: ["results", i, "scores", j, "name"],
              message: `"${score.name}" is the name of one of the experiment's evaluators; give this score another name`,
              input: undefined,
            },
          ]
        : [],
    ),
  );
  if (issues.length > 0) throw validationError(issues, ["body"], "Request");
}
