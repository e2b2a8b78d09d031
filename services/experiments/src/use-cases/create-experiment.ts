import {
  type Caller,
  canonicalJson,
  type Evaluator,
  type Experiment,
  newId,
  type OperationInput,
  operations,
} from "@svc/contracts";
import { countRowsAtVersion, type Database, findDataset, idempotencyOf, runIdempotent } from "@svc/db";
import type { Kysely, Transaction } from "kysely";
import { type CompiledEvaluator, compileEvaluators } from "../domain/evaluators";
import {
  type ExperimentRecord,
  findOptionalExperimentById,
  insertExperiment,
} from "../repositories/experiments";
import {
  carryResults,
  carryScores,
  listResultsToScore,
  type PinnedVersion,
  upsertScores,
} from "../repositories/results";
import { invalidBody } from "./errors";
import { withTotals } from "./experiment-view";
import { ruleScoresOf } from "./rule-scores";

/** Results scored again at a time when a base's results are carried over under new rules. */
const RESCORE_PAGE = 1000;

export async function createExperiment(
  db: Kysely<Database>,
  caller: Caller,
  input: OperationInput<typeof operations.createExperiment>,
): Promise<Experiment> {
  const { params, body } = input;
  // Before anything is written: a rule that cannot run is refused now, not at the first result.
  const evaluators = compileEvaluators(body.evaluators);
  // The answer itself is what a retry with the same Idempotency-Key gets back, so it is made here.
  return runIdempotent(
    db,
    idempotencyOf(caller, operations.createExperiment, input),
    async (trx): Promise<Experiment> => {
      const dataset = await findDataset(trx, { organizationId: caller.organizationId, ...params });
      const version = body.version ?? dataset.version;
      if (version > dataset.version) {
        throw invalidBody(
          ["version"],
          `dataset "${dataset.slug}" has no version ${version}; its current version is ${dataset.version}`,
        );
      }
      const base =
        body.baseExperimentId === undefined
          ? undefined
          : await findBase(trx, caller, body.baseExperimentId, dataset.id);
      const experiment = await insertExperiment(trx, {
        id: newId(),
        organizationId: caller.organizationId,
        datasetId: dataset.id,
        name: body.name,
        version,
        baseExperimentId: base?.id ?? null,
        metadata: body.metadata ?? null,
        evaluators: body.evaluators,
        rowCount: await countRowsAtVersion(trx, dataset.id, version),
        actor: caller.actor,
      });
      if (base) await carryFrom(trx, experiment, base, evaluators, caller);
      const [created] = await withTotals(trx, [experiment]);
      return created as Experiment;
    },
  );
}

/** The base named in the body: an experiment of the same dataset in the caller's organisation. */
async function findBase(
  trx: Transaction<Database>,
  caller: Caller,
  baseExperimentId: string,
  datasetId: string,
): Promise<ExperimentRecord> {
  const base = await findOptionalExperimentById(trx, caller.organizationId, baseExperimentId);
  if (!base) throw invalidBody(["baseExperimentId"], `experiment "${baseExperimentId}" does not exist`);
  if (base.datasetId !== datasetId) {
    throw invalidBody(
      ["baseExperimentId"],
      `experiment "${baseExperimentId}" ran on another dataset; a base must be an experiment of this dataset`,
    );
  }
  return base;
}

/**
 * Carries over the base's results of the rows that did not change between the two versions, with the
 * scores that still hold: the runner's and people's, and the rule scores of rules declared the same
 * way. This experiment's other rules then score the carried results.
 */
async function carryFrom(
  trx: Transaction<Database>,
  experiment: ExperimentRecord,
  base: ExperimentRecord,
  evaluators: readonly CompiledEvaluator[],
  caller: Caller,
): Promise<void> {
  const pinned: PinnedVersion = {
    experimentId: experiment.id,
    datasetId: experiment.datasetId,
    version: experiment.version,
  };
  const carried = await carryResults(trx, pinned, base.id);
  if (carried === 0) return;
  const baseRules = new Map(base.evaluators.map((evaluator) => [evaluator.name, canonicalJson(evaluator)]));
  const sameRule = (evaluator: Evaluator) => baseRules.get(evaluator.name) === canonicalJson(evaluator);
  await carryScores(
    trx,
    experiment.id,
    base.id,
    experiment.evaluators.filter(sameRule).map((evaluator) => evaluator.name),
  );
  const newRules = evaluators.filter((evaluator) => !sameRule(evaluator.definition));
  if (newRules.length === 0) return;
  let afterRowId: string | undefined;
  for (;;) {
    const results = await listResultsToScore(trx, pinned, { afterRowId, limit: RESCORE_PAGE });
    const scores = results.flatMap((result) => ruleScoresOf(newRules, result, caller.actor));
    await upsertScores(trx, experiment.id, scores);
    if (results.length < RESCORE_PAGE) return;
    afterRowId = results[results.length - 1]?.rowId;
  }
}
