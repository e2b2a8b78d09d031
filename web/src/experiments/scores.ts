import type { Experiment, ExperimentResult } from "@svc/sdk";

/** What a score may hold: a number, a boolean (1 or 0 in means) or a category. */
export type ScoreValue = number | boolean | string;

/** Every score name the experiments have, in the order of first appearance, then by name. */
export function scoreNames(experiments: readonly Pick<Experiment, "scores">[]): string[] {
  const names = new Set<string>();
  for (const experiment of experiments) for (const name of Object.keys(experiment.scores)) names.add(name);
  return [...names].sort((a, b) => a.localeCompare(b));
}

/** One point of the trend chart: an experiment, and each score's mean in it (absent when it has none). */
export interface TrendPoint {
  id: string;
  name: string;
  createdAt: string;
  means: Record<string, number>;
}

/**
 * The dataset's experiments oldest first, as the trend chart draws them: each score's mean, where the
 * experiment has one (a score that is only categories has no mean and no point).
 */
export function meanTrend(experiments: readonly Experiment[]): TrendPoint[] {
  return [...experiments]
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id))
    .map((experiment) => {
      const means: Record<string, number> = {};
      for (const [name, summary] of Object.entries(experiment.scores))
        if (summary.mean !== null) means[name] = summary.mean;
      return { id: experiment.id, name: experiment.name, createdAt: experiment.createdAt, means };
    });
}

/** A bar of a distribution: what it counts ("0.2–0.4", "pass", "refund") and how many. */
export interface Bar {
  label: string;
  count: number;
}

/** How one score's values are spread: a histogram of numbers, or a count per category. */
export type Distribution =
  | { name: string; kind: "numeric"; bars: Bar[]; count: number }
  | { name: string; kind: "categories"; bars: Bar[]; count: number };

/**
 * Each score's distribution over the results: numbers in `bins` equal bins from the lowest to the
 * highest value; booleans and strings as a count per value, the most frequent first. A score whose
 * values are of both kinds is shown as categories (a number then counts as its text).
 */
export function distributions(
  results: readonly Pick<ExperimentResult, "scores">[],
  bins = 10,
): Distribution[] {
  const values = new Map<string, ScoreValue[]>();
  for (const result of results)
    for (const [name, score] of Object.entries(result.scores)) {
      const list = values.get(name) ?? [];
      list.push(score.value);
      values.set(name, list);
    }
  return [...values.keys()]
    .sort((a, b) => a.localeCompare(b))
    .map((name) => {
      const list = values.get(name) ?? [];
      const numbers = list.filter((value): value is number => typeof value === "number");
      return numbers.length === list.length
        ? { name, kind: "numeric", bars: histogram(numbers, bins), count: list.length }
        : { name, kind: "categories", bars: categoryCounts(list), count: list.length };
    });
}

/** Numbers counted in `bins` equal bins from the lowest to the highest; the last bin holds the highest. */
export function histogram(numbers: readonly number[], bins: number): Bar[] {
  if (numbers.length === 0) return [];
  const low = Math.min(...numbers);
  const high = Math.max(...numbers);
  if (low === high) return [{ label: formatNumber(low), count: numbers.length }];
  const width = (high - low) / bins;
  const counts = new Array<number>(bins).fill(0);
  for (const n of numbers) {
    const bin = Math.min(bins - 1, Math.floor((n - low) / width));
    counts[bin] = (counts[bin] ?? 0) + 1;
  }
  return counts.map((count, i) => ({
    label: `${formatNumber(low + i * width)}–${formatNumber(low + (i + 1) * width)}`,
    count,
  }));
}

function categoryCounts(values: readonly ScoreValue[]): Bar[] {
  const counts = new Map<string, number>();
  for (const value of values) {
    const label = typeof value === "boolean" ? (value ? "pass" : "fail") : String(value);
    counts.set(label, (counts.get(label) ?? 0) + 1);
  }
  return [...counts.entries()]
    .map(([label, count]) => ({ label, count }))
    .sort((a, b) => b.count - a.count || a.label.localeCompare(b.label));
}

/** A number as a score reads: at most three decimals, no trailing zeros. */
export function formatNumber(n: number): string {
  return Number(n.toFixed(3)).toLocaleString("en", { maximumFractionDigits: 3 });
}

/** A score's value in a table: numbers as `formatNumber`, booleans as pass or fail, categories as they are. */
export function formatScore(value: ScoreValue): string {
  if (typeof value === "boolean") return value ? "pass" : "fail";
  if (typeof value === "number") return formatNumber(value);
  return value;
}

/** A mean, or a dash when the score has none (only categories). */
export const formatMean = (mean: number | null | undefined): string =>
  mean === null || mean === undefined ? "–" : formatNumber(mean);

/** A difference with its sign: "+0.25", "−0.1", "0". */
export function formatDelta(delta: number | null): string {
  if (delta === null) return "–";
  const text = formatNumber(Math.abs(delta));
  if (text === "0") return "0";
  return delta > 0 ? `+${text}` : `−${text}`;
}

/** A cost kept in millionths of a cent, in dollars: "$0.0123". */
export function formatCost(microcents: number): string {
  const dollars = microcents / 100_000_000;
  return `$${dollars.toLocaleString("en", { maximumSignificantDigits: 3 })}`;
}
