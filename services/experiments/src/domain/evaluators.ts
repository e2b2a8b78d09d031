import { type Cell, canonicalJson, type Evaluator, type ScoreValue, validationError } from "@svc/contracts";
import { Ajv2020 } from "ajv/dist/2020.js";
import { distance } from "fastest-levenshtein";
import { RE2JS } from "re2js";

/**
 * The rule evaluators the platform applies to each result as it is recorded. Each is compiled once,
 * when the experiment starts (a regex that does not compile is refused then, not at the first
 * result), and gives a score from a result's output and the row's expected output, or nothing when
 * it has nothing to compare with.
 */
export interface CompiledEvaluator {
  definition: Evaluator;
  /** The score of `output`, or undefined when the rule does not apply (no expected value to compare with). */
  score(output: Cell, expectedOutput: Cell | undefined): ScoreValue | undefined;
}

/** Texts longer than this are compared on their first this many characters (levenshtein is quadratic). */
export const LEVENSHTEIN_MAX_LENGTH = 10_000;

/** Compiles an experiment's evaluators; one that cannot be compiled is `validation_failed` naming it. */
export function compileEvaluators(
  definitions: readonly Evaluator[],
  path: readonly (string | number)[] = ["body", "evaluators"],
): CompiledEvaluator[] {
  return definitions.map((definition, i) => {
    try {
      return { definition, score: scorerOf(definition) };
    } catch (error) {
      const where = definition.kind === "regex" ? "pattern" : "schema";
      throw validationError(
        [
          {
            code: "custom",
            path: [...path, i, where],
            message: `evaluator "${definition.name}": ${(error as Error).message}`,
            input: undefined,
          },
        ],
        [],
        "Request",
      );
    }
  });
}

type Scorer = CompiledEvaluator["score"];

function scorerOf(definition: Evaluator): Scorer {
  const against = (compare: (output: Cell, expected: Cell) => ScoreValue): Scorer => {
    const fixed = "expected" in definition ? definition.expected : undefined;
    return (output, expectedOutput) => {
      const expected = fixed !== undefined ? fixed : expectedOutput;
      return expected === undefined || expected === null ? undefined : compare(output, expected);
    };
  };
  switch (definition.kind) {
    case "exact_match": {
      const normal = (value: Cell) => {
        const text = textOf(value);
        const trimmed = definition.trim ? text.trim() : text;
        return definition.caseSensitive ? trimmed : trimmed.toLowerCase();
      };
      return against((output, expected) => normal(output) === normal(expected));
    }
    case "json_equal":
      return against((output, expected) => canonicalJson(parsed(output)) === canonicalJson(parsed(expected)));
    case "contains": {
      const fold = (text: string) => (definition.caseSensitive ? text : text.toLowerCase());
      if (definition.value !== undefined) {
        const needle = fold(definition.value);
        return (output) => fold(textOf(output)).includes(needle);
      }
      return against((output, expected) => fold(textOf(output)).includes(fold(textOf(expected))));
    }
    case "regex": {
      const flags =
        (definition.flags.includes("i") ? RE2JS.CASE_INSENSITIVE : 0) |
        (definition.flags.includes("m") ? RE2JS.MULTILINE : 0) |
        (definition.flags.includes("s") ? RE2JS.DOTALL : 0);
      const pattern = RE2JS.compile(definition.pattern, flags);
      return (output) => pattern.matcher(textOf(output)).find();
    }
    case "json_schema": {
      const validate = new Ajv2020({ strict: false, allErrors: false }).compile(definition.schema);
      return (output) => validate(parsed(output)) === true;
    }
    case "numeric_close":
      return against((output, expected) => {
        const got = numberOf(output);
        const want = numberOf(expected);
        if (got === undefined || want === undefined) return false;
        const allowed = Math.max(definition.tolerance, definition.relativeTolerance * Math.abs(want));
        return Math.abs(got - want) <= allowed;
      });
    case "levenshtein": {
      const fold = (value: Cell) => {
        const text = textOf(value).slice(0, LEVENSHTEIN_MAX_LENGTH);
        return definition.caseSensitive ? text : text.toLowerCase();
      };
      return against((output, expected) => similarity(fold(output), fold(expected)));
    }
  }
}

/** 1 for equal texts, 0 for texts with nothing in common: one minus the edit distance over the longer length. */
export function similarity(a: string, b: string): number {
  const longer = Math.max(a.length, b.length);
  if (longer === 0) return 1;
  return Math.round((1 - distance(a, b) / longer) * 1e6) / 1e6;
}

/** A value as text: a string as it is, anything else as its JSON. */
function textOf(value: Cell): string {
  return typeof value === "string" ? value : canonicalJson(value);
}

/** A string that holds a JSON object or array is read as that value (models often answer JSON as text). */
function parsed(value: Cell): unknown {
  if (typeof value !== "string") return value;
  const text = value.trim();
  if (!text.startsWith("{") && !text.startsWith("[")) return value;
  try {
    return JSON.parse(text);
  } catch {
    return value;
  }
}

function numberOf(value: Cell): number | undefined {
  if (typeof value === "number") return value;
  if (typeof value !== "string" || value.trim() === "") return undefined;
  const number = Number(value.trim());
  return Number.isFinite(number) ? number : undefined;
}
