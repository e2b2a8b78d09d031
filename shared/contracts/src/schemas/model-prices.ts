import { z } from "zod";
import { timestampSchema } from "./common";

/* What a model's tokens cost: the price table that turns a span's tokens into its cost. */

/**
 * A model's name, or a prefix of names ending in `*` (`gpt-4o*`). A span's model takes the price of
 * its exact name if there is one, else of the longest prefix it starts with.
 */
export const modelPatternSchema = z
  .string()
  .min(1, "must not be empty")
  .max(200, "must be at most 200 characters")
  .regex(/^[^*]+\*?$/, "must be a model name, or a prefix of model names followed by one *");

const usdPerMillionSchema = z
  .number({ error: "must be a number of US dollars per million tokens" })
  .min(0, "must not be negative")
  .max(1_000_000, "must be at most 1000000")
  .refine((usd) => Number.isInteger(Math.round(usd * 1e8 * 1e4) / 1e4), "must have at most 8 decimal places")
  .describe("US dollars per million tokens, 0 to 1000000, with at most 8 decimal places");

const dateSchema = z.iso.date({ error: "must be a date, like 2025-01-31" });

export const modelPriceSchema = z.object({
  id: z.string().describe("`default:` and the model and date for a shipped default"),
  model: modelPatternSchema,
  effectiveFrom: z.string().describe("The first UTC day (YYYY-MM-DD) whose spans take this price"),
  inputUsdPerMillionTokens: z.number(),
  outputUsdPerMillionTokens: z.number(),
  source: z
    .enum(["default", "organization"])
    .describe(
      "A shipped default, or the organisation's own price (which replaces a default of the same model and date)",
    ),
  updatedAt: timestampSchema.nullable().describe("When the organisation set it; null for a default"),
});
export type ModelPrice = z.infer<typeof modelPriceSchema>;

export const modelPriceListSchema = z.object({ modelPrices: z.array(modelPriceSchema) });
export type ModelPriceList = z.infer<typeof modelPriceListSchema>;

export const setModelPriceBodySchema = z.strictObject({
  model: modelPatternSchema,
  effectiveFrom: dateSchema.optional().describe("Today (UTC) if absent"),
  inputUsdPerMillionTokens: usdPerMillionSchema,
  outputUsdPerMillionTokens: usdPerMillionSchema,
});
export type SetModelPriceBody = z.output<typeof setModelPriceBodySchema>;

export const modelPricePathSchema = z.strictObject({
  priceId: z.string().min(1).max(300),
});
