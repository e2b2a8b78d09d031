import { z } from "zod";
import { cuidSchema, rowIdSchema } from "../ids";
import {
  actorSchema,
  nameSchema,
  page,
  paginationQuerySchema,
  queryBooleanSchema,
  timestampSchema,
  versionSchema,
} from "./common";
import { cellSchema, projectPathSchema } from "./datasets";
import { recordOf } from "./proto-keys";

/** Most results, or scores, one request records. */
export const MAX_EXPERIMENT_BATCH = 1000;
/** Most rule evaluators one experiment declares. */
export const MAX_EVALUATORS = 20;
/** Longest category a score may hold as its value. */
export const MAX_SCORE_TEXT = 200;

export const experimentIdSchema = cuidSchema;
export const experimentPathSchema = projectPathSchema.extend({ experimentId: experimentIdSchema });
export const comparePathSchema = projectPathSchema.extend({
  experimentId: experimentIdSchema,
  otherExperimentId: experimentIdSchema,
});

export const scoreNameSchema = z
  .string()
  .min(1, "must be 1-64 characters")
  .max(64, "must be 1-64 characters")
  .regex(/^\S(?:.*\S)?$/s, "must not begin or end with white space")
  .describe("A score's name, 1-64 characters");

export const scoreValueSchema = z
  .union([z.number(), z.boolean(), z.string().max(MAX_SCORE_TEXT)], {
    error: `must be a number, a boolean or a category (a string of at most ${MAX_SCORE_TEXT} characters)`,
  })
  .describe(
    "A number, a boolean (counted as 1 or 0 in means and comparisons) or a category (a short string, left out of means)",
  );
export type ScoreValue = z.infer<typeof scoreValueSchema>;

export const scoreSources = ["rule", "code", "human", "llm"] as const;
export const scoreSourceSchema = z.enum(scoreSources);
export type ScoreSource = z.infer<typeof scoreSourceSchema>;

const evaluatorBase = {
  name: scoreNameSchema.describe("The name of the score this evaluator gives"),
  expected: cellSchema
    .optional()
    .describe("Compare with this value instead of the row's expectedOutput (at the experiment's version)"),
};
const caseSensitive = z.boolean().default(true).describe("Compare letters' case too (default true)");

export const evaluatorSchema = z
  .discriminatedUnion(
    "kind",
    [
      z.strictObject({
        ...evaluatorBase,
        kind: z.literal("exact_match"),
        caseSensitive,
        trim: z.boolean().default(false).describe("Ignore white space at both ends (default false)"),
      }),
      z.strictObject({ ...evaluatorBase, kind: z.literal("json_equal") }),
      z.strictObject({
        ...evaluatorBase,
        kind: z.literal("contains"),
        value: z
          .string()
          .min(1)
          .max(10_000)
          .optional()
          .describe("The text the output must contain; the expected output's text when left out"),
        caseSensitive,
      }),
      z.strictObject({
        name: evaluatorBase.name,
        kind: z.literal("regex"),
        pattern: z.string().min(1).max(1000).describe("RE2 syntax: matching takes linear time"),
        flags: z
          .string()
          .regex(/^[ims]*$/, "may hold only i, m and s")
          .default("")
          .describe("i (ignore case), m (multi-line), s (dot matches new lines)"),
      }),
      z.strictObject({
        name: evaluatorBase.name,
        kind: z.literal("json_schema"),
        schema: z
          .record(z.string(), z.unknown())
          .describe("A JSON Schema (draft 2020-12 or 07) the output must satisfy"),
      }),
      z.strictObject({
        ...evaluatorBase,
        kind: z.literal("numeric_close"),
        tolerance: z.number().min(0).default(0).describe("Largest absolute difference that passes"),
        relativeTolerance: z
          .number()
          .min(0)
          .default(0)
          .describe("Largest difference, as a share of the expected value, that passes"),
      }),
      z.strictObject({ ...evaluatorBase, kind: z.literal("levenshtein"), caseSensitive }),
    ],
    {
      error: (issue) =>
        issue.code === "invalid_union"
          ? "kind must be one of exact_match, json_equal, contains, regex, json_schema, numeric_close, levenshtein"
          : undefined,
    },
  )
  .describe(
    "A rule the platform applies to each result as it is recorded, comparing `output` with the row's `expectedOutput` (or `expected`). exact_match, json_equal, contains, regex, json_schema and numeric_close give a boolean; levenshtein a similarity from 0 to 1. A result with an error, or without the expected value a rule needs, gets no score from it.",
  );
export type Evaluator = z.infer<typeof evaluatorSchema>;
export type EvaluatorKind = Evaluator["kind"];

const evaluatorListSchema = z
  .array(evaluatorSchema)
  .max(MAX_EVALUATORS, `at most ${MAX_EVALUATORS} evaluators`)
  .superRefine((list, ctx) => {
    const seen = new Set<string>();
    list.forEach((evaluator, i) => {
      if (seen.has(evaluator.name))
        ctx.addIssue({ code: "custom", path: [i, "name"], message: `"${evaluator.name}" is named twice` });
      seen.add(evaluator.name);
    });
  });

export const experimentStatusSchema = z.enum(["running", "finished"]);

export const createExperimentBodySchema = z.strictObject({
  name: nameSchema,
  version: versionSchema
    .optional()
    .describe("The dataset version to run on (default: the current one); the experiment stays pinned to it"),
  baseExperimentId: experimentIdSchema
    .optional()
    .describe(
      "An earlier experiment of the same dataset: the result of every row whose revision is the same at both versions is carried over, so only new and changed rows are pending",
    ),
  metadata: cellSchema.optional().describe("Anything worth keeping with the run: model, prompt, commit"),
  evaluators: evaluatorListSchema.default([]),
});
export type CreateExperimentBody = z.infer<typeof createExperimentBodySchema>;

export const updateExperimentBodySchema = z
  .strictObject({
    name: nameSchema,
    metadata: cellSchema,
    status: z.literal("finished").describe("Finish the experiment: it records nothing more"),
  })
  .partial()
  .refine((body) => Object.keys(body).length > 0, "must change at least one of name, metadata, status")
  .meta({ minProperties: 1 });

export const scoreSummarySchema = z.object({
  count: z.number().int(),
  mean: z.number().nullable().describe("Of numeric and boolean values; null when every value is a category"),
  min: z.number().nullable(),
  max: z.number().nullable(),
});

export const experimentSchema = z.object({
  id: experimentIdSchema,
  datasetId: z.string(),
  name: z.string(),
  version: z.number().int().describe("The dataset version the experiment runs on"),
  baseExperimentId: z.string().nullable(),
  metadata: cellSchema,
  status: experimentStatusSchema,
  evaluators: z.array(evaluatorSchema),
  createdAt: timestampSchema,
  finishedAt: timestampSchema.nullable(),
  actor: actorSchema,
  rows: z.number().int().describe("Rows of the dataset at the pinned version"),
  results: z.number().int().describe("Rows with a result (errors and carried ones included)"),
  errors: z.number().int().describe("Results that record an error"),
  carried: z.number().int().describe("Results carried over from the base experiment"),
  scores: recordOf(z.string(), scoreSummarySchema).describe("Each score's summary, by name"),
});
export type Experiment = z.infer<typeof experimentSchema>;

export const listExperimentsQuerySchema = paginationQuerySchema;
export const experimentPageSchema = page(experimentSchema);

const scoreInputSchema = z.strictObject({
  name: scoreNameSchema,
  value: scoreValueSchema,
  comment: z.string().max(2000).optional(),
});

export const resultInputSchema = z.strictObject({
  rowId: rowIdSchema,
  output: cellSchema.describe("What the task answered for the row"),
  traceId: z
    .string()
    .regex(/^[0-9a-f]{32}$/, "must be a trace id: 32 lowercase hexadecimal digits")
    .optional(),
  latencyMs: z.number().min(0).max(86_400_000).optional(),
  tokens: z.number().int().min(0).max(2_147_483_647).optional(),
  costMicrocents: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
  error: z.string().min(1).max(10_000).optional().describe("Why the task failed for this row"),
  scores: z
    .array(scoreInputSchema.extend({ source: z.enum(["code", "llm"]).default("code") }))
    .max(MAX_EVALUATORS * 5)
    .default([])
    .describe("Scores the runner's own evaluators gave (source `code`, or `llm` for a judge model)"),
});
export type ResultInput = z.infer<typeof resultInputSchema>;

function uniqueRows<T extends { rowId?: string | undefined }>(what: string) {
  return (list: readonly T[], ctx: z.RefinementCtx) => {
    const seen = new Set<string>();
    list.forEach((item, i) => {
      if (item.rowId === undefined) return;
      if (seen.has(item.rowId))
        ctx.addIssue({ code: "custom", path: [i, "rowId"], message: `row "${item.rowId}" has two ${what}` });
      seen.add(item.rowId);
    });
  };
}

export const recordResultsBodySchema = z.strictObject({
  results: z
    .array(resultInputSchema)
    .min(1, "must hold at least one result")
    .max(MAX_EXPERIMENT_BATCH, `must hold at most ${MAX_EXPERIMENT_BATCH} results`)
    .superRefine(uniqueRows("results")),
});
export type RecordResultsBody = z.infer<typeof recordResultsBodySchema>;

export const recordedSchema = z.object({ recorded: z.number().int() });

export const scoreEntrySchema = scoreInputSchema.extend({
  rowId: rowIdSchema.optional().describe("The result scored; without it, the experiment as a whole"),
  source: z
    .enum(["code", "human", "llm"])
    .optional()
    .describe("Who judged: `code` by default for a key, always `human` from a person's session"),
});
export const recordScoresBodySchema = z.strictObject({
  scores: z
    .array(scoreEntrySchema)
    .min(1, "must hold at least one score")
    .max(MAX_EXPERIMENT_BATCH, `must hold at most ${MAX_EXPERIMENT_BATCH} scores`),
});
export type RecordScoresBody = z.infer<typeof recordScoresBodySchema>;

export const resultScoreSchema = z.object({
  value: scoreValueSchema,
  source: scoreSourceSchema,
  comment: z.string().nullable(),
  actor: actorSchema,
});

export const resultSchema = z.object({
  rowId: z.string(),
  rowVersion: z.number().int().describe("The dataset version that made the row as the experiment saw it"),
  input: cellSchema.optional().describe("The row's input at the experiment's version"),
  expectedOutput: cellSchema.optional().describe("The row's expected output at the experiment's version"),
  output: cellSchema,
  traceId: z.string().nullable(),
  latencyMs: z.number().nullable(),
  tokens: z.number().int().nullable(),
  costMicrocents: z.number().int().nullable(),
  error: z.string().nullable(),
  carriedFrom: z.string().nullable().describe("The experiment this result was carried over from"),
  scores: recordOf(z.string(), resultScoreSchema),
  createdAt: timestampSchema,
});
export type ExperimentResult = z.infer<typeof resultSchema>;

/** `score` and `below` go together: the use-case says so, once each has passed its own schema. */
export const listResultsQuerySchema = paginationQuerySchema.extend({
  errored: queryBooleanSchema.optional().describe("Only results with (true) or without (false) an error"),
  score: scoreNameSchema.optional().describe("With `below`: only results whose score of this name is lower"),
  below: z
    .preprocess(
      (value) => (typeof value === "string" && /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : value),
      z.number({ error: "must be a number" }),
    )
    .optional(),
});
export const resultPageSchema = page(resultSchema);

export const compareChanges = ["regressed", "improved", "added", "removed", "same"] as const;
export const compareChangeSchema = z.enum(compareChanges);
export type CompareChange = z.infer<typeof compareChangeSchema>;

export const compareEntrySchema = z.object({
  rowId: z.string(),
  change: compareChangeSchema,
  rowChanged: z.boolean().describe("The row's revision differs between the two experiments' versions"),
  a: resultSchema.nullable(),
  b: resultSchema.nullable(),
});
export type CompareEntry = z.infer<typeof compareEntrySchema>;

export const compareSummarySchema = z.object({
  scores: recordOf(
    z.string(),
    z.object({ a: z.number().nullable(), b: z.number().nullable(), delta: z.number().nullable() }),
  ).describe("Each shared score's mean in a and b, and b − a"),
  regressed: z.number().int(),
  improved: z.number().int(),
  same: z.number().int(),
  added: z.number().int(),
  removed: z.number().int(),
  rowsChanged: z.number().int(),
});
export type CompareSummary = z.infer<typeof compareSummarySchema>;

export const comparePageSchema = page(compareEntrySchema).extend({ summary: compareSummarySchema });
export const compareQuerySchema = paginationQuerySchema.extend({
  change: compareChangeSchema.optional().describe("Only rows with this change"),
});
