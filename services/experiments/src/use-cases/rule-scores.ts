import type { Actor, Cell } from "@svc/contracts";
import type { CompiledEvaluator } from "../domain/evaluators";
import type { ScoreToStore } from "../repositories/results";

/** A result as the rules judge it. */
export interface JudgedResult {
  rowId: string;
  output: Cell;
  error: string | null;
  expectedOutput: Cell | undefined;
}

/** The scores the rules give one result: none for a failed one (there is no answer to judge). */
export function ruleScoresOf(
  rules: readonly CompiledEvaluator[],
  result: JudgedResult,
  actor: Actor,
): ScoreToStore[] {
  if (result.error !== null) return [];
  return rules.flatMap((rule) => {
    const value = rule.score(result.output, result.expectedOutput);
    return value === undefined
      ? []
      : [{ rowId: result.rowId, name: rule.definition.name, value, source: "rule", comment: null, actor }];
  });
}
