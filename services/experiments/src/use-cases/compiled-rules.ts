import { canonicalJson } from "@svc/contracts";
import { type CompiledEvaluator, compileEvaluators } from "../domain/evaluators";
import type { ExperimentRecord } from "../repositories/experiments";

/** Experiments whose compiled rules are kept: a runner records batch after batch of one experiment. */
const KEPT = 256;
const compiled = new Map<string, { key: string; rules: CompiledEvaluator[] }>();

/** An experiment's rules, compiled once per process rather than at every batch of results. */
export function rulesOf(experiment: ExperimentRecord): CompiledEvaluator[] {
  const key = canonicalJson(experiment.evaluators);
  const kept = compiled.get(experiment.id);
  if (kept && kept.key === key) return kept.rules;
  const rules = compileEvaluators(experiment.evaluators, ["evaluators"]);
  compiled.delete(experiment.id);
  compiled.set(experiment.id, { key, rules });
  if (compiled.size > KEPT) compiled.delete(compiled.keys().next().value as string);
  return rules;
}
