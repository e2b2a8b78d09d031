import type { ModelPrice } from "@svc/contracts";
import { DEFAULT_PRICES_EFFECTIVE_FROM, defaultPrices } from "./default-prices";
import type { SpanFacts } from "./gen-ai";

/** 1 US dollar = 10^8 microcents. */
const MICROCENTS_PER_USD = 100_000_000;

/** A price as the table keeps it: microcents per million tokens, exact. */
export interface PriceEntry {
  id: string;
  model: string;
  effectiveFrom: string;
  inputMicrocentsPerMillion: bigint;
  outputMicrocentsPerMillion: bigint;
  source: "default" | "organization";
  updatedAt: string | null;
}

export const microcentsPerMillion = (usd: number): bigint => BigInt(Math.round(usd * MICROCENTS_PER_USD));
const usdOf = (microcents: bigint): number => Number(microcents) / MICROCENTS_PER_USD;

export const defaultPriceEntries: readonly PriceEntry[] = defaultPrices.map((price) => ({
  id: `default:${price.model}:${DEFAULT_PRICES_EFFECTIVE_FROM}`,
  model: price.model,
  effectiveFrom: DEFAULT_PRICES_EFFECTIVE_FROM,
  inputMicrocentsPerMillion: microcentsPerMillion(price.input),
  outputMicrocentsPerMillion: microcentsPerMillion(price.output),
  source: "default",
  updatedAt: null,
}));

/**
 * An organisation's price table: the shipped defaults, each replaced by the organisation's own price
 * for the same model and date, and the organisation's other prices; by model, then date.
 */
export function priceTable(own: readonly PriceEntry[]): PriceEntry[] {
  const key = (entry: PriceEntry) => `${entry.model}\n${entry.effectiveFrom}`;
  const owned = new Set(own.map(key));
  return [...defaultPriceEntries.filter((entry) => !owned.has(key(entry))), ...own].sort((a, b) =>
    a.model === b.model ? compare(a.effectiveFrom, b.effectiveFrom) : compare(a.model, b.model),
  );
}

/**
 * The price of `model` for a span that started on `day` (YYYY-MM-DD, UTC): of the entries in effect
 * that day, those naming the model exactly, else those of the longest prefix pattern it starts with;
 * of these, the latest in effect.
 */
export function priceOf(table: readonly PriceEntry[], model: string, day: string): PriceEntry | undefined {
  const inEffect = table.filter((entry) => entry.effectiveFrom <= day);
  const exact = inEffect.filter((entry) => entry.model === model);
  if (exact.length > 0) return latest(exact);
  const prefixes = inEffect.filter(
    (entry) => entry.model.endsWith("*") && model.startsWith(entry.model.slice(0, -1)),
  );
  const longest = Math.max(...prefixes.map((entry) => entry.model.length));
  return latest(prefixes.filter((entry) => entry.model.length === longest));
}

/** What tokens cost at a price, in microcents, rounded to the nearest. */
export function costAt(price: PriceEntry, tokensInput: number, tokensOutput: number): number {
  const millionths =
    BigInt(tokensInput) * price.inputMicrocentsPerMillion +
    BigInt(tokensOutput) * price.outputMicrocentsPerMillion;
  const cost = (millionths + 500_000n) / 1_000_000n;
  return cost > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(cost);
}

/**
 * What a span cost: what its exporter said, else its tokens at its model's price on the day it started
 * (the model that answered, else the one asked for); null when neither is known.
 */
export function spanCost(facts: SpanFacts, startNs: string, prices: readonly PriceEntry[]): number | null {
  if (facts.costMicrocents !== null) return facts.costMicrocents;
  const model = facts.models.at(-1);
  if (model === undefined) return null;
  const day = new Date(Number(BigInt(startNs) / 1_000_000n)).toISOString().slice(0, 10);
  const price = priceOf(prices, model, day);
  return price === undefined ? null : costAt(price, facts.tokensInput, facts.tokensOutput);
}

export const toModelPrice = (entry: PriceEntry): ModelPrice => ({
  id: entry.id,
  model: entry.model,
  effectiveFrom: entry.effectiveFrom,
  inputUsdPerMillionTokens: usdOf(entry.inputMicrocentsPerMillion),
  outputUsdPerMillionTokens: usdOf(entry.outputMicrocentsPerMillion),
  source: entry.source,
  updatedAt: entry.updatedAt,
});

function latest(entries: readonly PriceEntry[]): PriceEntry | undefined {
  return entries.reduce<PriceEntry | undefined>(
    (best, entry) => (best === undefined || entry.effectiveFrom > best.effectiveFrom ? entry : best),
    undefined,
  );
}

const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
