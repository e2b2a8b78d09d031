import { verdict } from "./report";

interface MeasureOptions {
  warmup?: number;
  samples?: number;
}

export interface Timing {
  median: number;
  p95: number;
}

/**
 * Times each of `runs` after a warm-up, taking turns sample by sample, so that whatever the machine
 * does meanwhile weighs on each alike; returns each one's median and 95th percentile in milliseconds.
 */
export async function measureInTurns(
  runs: readonly (() => Promise<unknown>)[],
  { warmup = 20, samples = 200 }: MeasureOptions = {},
): Promise<Timing[]> {
  for (let i = 0; i < warmup; i++) for (const run of runs) await run();
  const times = runs.map((): number[] => []);
  for (let i = 0; i < samples; i++) {
    for (const [k, run] of runs.entries()) {
      const started = process.hrtime.bigint();
      await run();
      times[k]?.push(Number(process.hrtime.bigint() - started) / 1e6);
    }
  }
  return times.map((sorted) => {
    sorted.sort((a, b) => a - b);
    return { median: percentile(sorted, 0.5), p95: percentile(sorted, 0.95) };
  });
}

/**
 * Runs each of `measurements` in turns, `rounds` times, and returns each one's mean: whatever the
 * machine does meanwhile then weighs on every side alike instead of on whichever ran last.
 */
export function meansInTurns<T extends readonly (() => number)[]>(
  measurements: T,
  rounds: number,
): { [K in keyof T]: number } {
  const sums = measurements.map(() => 0);
  for (let round = 0; round < rounds; round++) {
    measurements.forEach((measure, i) => {
      sums[i] = (sums[i] ?? 0) + measure();
    });
  }
  return sums.map((sum) => sum / rounds) as { [K in keyof T]: number };
}

/** The value at quantile `q` (0 to 1) of values sorted in ascending order; NaN when there are none. */
export const percentile = (sorted: readonly number[], q: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;

export interface Row {
  measurement: string;
  subject: string;
  baseline: string;
  subjectMs: number;
  baselineMs: number;
  target: string;
  pass: boolean;
}

/** Prints the ratios side by side with the raw numbers, as a Markdown table, and returns it. */
export function printTable(title: string, rows: readonly Row[], unit = "median ms"): string {
  const lines = [
    `### ${title}`,
    "",
    `| measurement | subject (${unit}) | baseline (${unit}) | ratio | target | |`,
    "|---|---|---|---|---|---|",
    ...rows.map((row) => {
      const ratio = row.subjectMs / row.baselineMs;
      return `| ${row.measurement} | ${row.subject}: ${row.subjectMs.toFixed(2)} | ${row.baseline}: ${row.baselineMs.toFixed(2)} | ${ratio.toFixed(2)} | ${row.target} | ${verdict(row.pass)} |`;
    }),
  ];
  const text = lines.join("\n");
  console.log(`\n${text}\n`);
  return text;
}

/**
 * The platform settings among `names` that are set in this process's environment, so that a benchmark
 * can try them from the command line (`SVC_WRITER_STALL_MS=20 npm run bench`) and otherwise runs with
 * the platform's defaults.
 */
export const settingsFromEnv = (names: readonly string[]): Record<string, string> =>
  Object.fromEntries(
    names.flatMap((name) => {
      const value = process.env[name];
      return value === undefined ? [] : [[name, value]];
    }),
  );
