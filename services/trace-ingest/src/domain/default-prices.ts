/**
 * The prices every organisation starts with: the list prices, in US dollars per million tokens, that
 * OpenAI, Anthropic and Google published on their pricing pages as of August 2025 (standard tier, text
 * tokens, the lowest context tier where the price depends on the prompt's length; cached and batch
 * prices are not modelled). They apply to spans of any date. An organisation replaces one by setting
 * a price for the same model and date, or adds its own (see docs/decisions/0041-model-prices.md).
 */
export const DEFAULT_PRICES_EFFECTIVE_FROM = "1970-01-01";

export const defaultPrices: readonly { model: string; input: number; output: number }[] = [
  // OpenAI — https://openai.com/api/pricing
  { model: "gpt-5*", input: 1.25, output: 10 },
  { model: "gpt-5-mini*", input: 0.25, output: 2 },
  { model: "gpt-5-nano*", input: 0.05, output: 0.4 },
  { model: "gpt-4.1*", input: 2, output: 8 },
  { model: "gpt-4.1-mini*", input: 0.4, output: 1.6 },
  { model: "gpt-4.1-nano*", input: 0.1, output: 0.4 },
  { model: "gpt-4o*", input: 2.5, output: 10 },
  { model: "gpt-4o-mini*", input: 0.15, output: 0.6 },
  { model: "gpt-4-turbo*", input: 10, output: 30 },
  { model: "gpt-3.5-turbo*", input: 0.5, output: 1.5 },
  { model: "o1*", input: 15, output: 60 },
  { model: "o1-mini*", input: 1.1, output: 4.4 },
  { model: "o3*", input: 2, output: 8 },
  { model: "o3-mini*", input: 1.1, output: 4.4 },
  { model: "o4-mini*", input: 1.1, output: 4.4 },
  // Anthropic — https://www.anthropic.com/pricing
  { model: "claude-opus-4*", input: 15, output: 75 },
  { model: "claude-sonnet-4*", input: 3, output: 15 },
  { model: "claude-3-7-sonnet*", input: 3, output: 15 },
  { model: "claude-3-5-sonnet*", input: 3, output: 15 },
  { model: "claude-3-5-haiku*", input: 0.8, output: 4 },
  { model: "claude-3-opus*", input: 15, output: 75 },
  { model: "claude-3-haiku*", input: 0.25, output: 1.25 },
  // Google — https://ai.google.dev/gemini-api/docs/pricing
  { model: "gemini-2.5-pro*", input: 1.25, output: 10 },
  { model: "gemini-2.5-flash*", input: 0.3, output: 2.5 },
  { model: "gemini-2.5-flash-lite*", input: 0.1, output: 0.4 },
  { model: "gemini-2.0-flash*", input: 0.1, output: 0.4 },
  { model: "gemini-1.5-pro*", input: 1.25, output: 5 },
  { model: "gemini-1.5-flash*", input: 0.075, output: 0.3 },
];
