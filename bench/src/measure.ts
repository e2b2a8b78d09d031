/** Times `run` after a warm-up and returns the median and 95th percentile in milliseconds. */
export async function measure(run: () => Promise<unknown>, { warmup = 20, samples = 200 } = {}) {
  for (let i = 0; i < warmup; i++) await run();
  const times: number[] = [];
  for (let i = 0; i < samples; i++) {
    const started = process.hrtime.bigint();
    await run();
    times.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? Number.NaN;
  return { median: at(0.5), p95: at(0.95) };
}

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
export function printTable(title: string, rows: readonly Row[]): string {
  const lines = [
    `### ${title}`,
    "",
    "| measurement | subject (median ms) | baseline (median ms) | ratio | target | |",
    "|---|---|---|---|---|---|",
    ...rows.map((row) => {
      const ratio = row.subjectMs / row.baselineMs;
      return `| ${row.measurement} | ${row.subject}: ${row.subjectMs.toFixed(2)} | ${row.baseline}: ${row.baselineMs.toFixed(2)} | ${ratio.toFixed(2)} | ${row.target} | ${row.pass ? "met" : "MISSED"} |`;
    }),
  ];
  const text = lines.join("\n");
  console.log(`\n${text}\n`);
  return text;
}
