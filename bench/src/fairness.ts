import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { targets } from "@svc/testing/platform";
import { importFile, writeImportFile } from "./import-file";
import { percentile } from "./measure";
import { ownerApi, secondsSince } from "./owner-api";
import { type PacedSample, pacedRequests } from "./paced";
import { log, machine, verdictTable, writeSection } from "./report";

/**
 * Fairness: while one organisation imports a 1,000,000-row CSV, another organisation's edits keep
 * their p99 within 100 ms. In each mode (the embedded platform, the distributed one), the other
 * organisation sends edits at a steady rate, open loop (each timed from when it was due, so that a
 * stall shows), first alone and then for as long as the import runs.
 */
const ROWS = Number(process.env.BENCH_FAIRNESS_ROWS ?? 1_000_000);
const RATE = Number(process.env.BENCH_FAIRNESS_RATE ?? 20);
const ALONE_SECONDS = Number(process.env.BENCH_FAIRNESS_ALONE_SECONDS ?? 15);
const TARGET_P99_MS = 100;

interface Latencies {
  edits: number;
  failed: number;
  p50: number;
  p99: number;
  max: number;
  /** The p99 from when the generator let go of each edit: the platform's part alone. */
  sentP99: number;
}

function latenciesOf(samples: readonly PacedSample[]): Latencies {
  const measured = samples.filter((sample) => !sample.warmup);
  const sorted = (times: number[]) => times.sort((a, b) => a - b);
  const due = sorted(measured.map((sample) => sample.answered - sample.due));
  const sent = sorted(measured.map((sample) => sample.answered - sample.sent));
  return {
    edits: measured.length,
    failed: measured.filter((sample) => sample.status !== 200).length,
    p50: percentile(due, 0.5),
    p99: percentile(due, 0.99),
    max: due[due.length - 1] ?? Number.NaN,
    sentP99: percentile(sent, 0.99),
  };
}

/** The edits' latency (from when each was due) by 5-second window: where in an import the tail is. */
function timeline(samples: readonly PacedSample[]): string {
  const first = samples[0]?.due ?? 0;
  const windows = new Map<number, number[]>();
  for (const sample of samples) {
    const window = Math.floor((sample.due - first) / 5_000);
    windows.set(window, [...(windows.get(window) ?? []), sample.answered - sample.due]);
  }
  return [...windows.entries()]
    .map(([window, times]) => {
      times.sort((a, b) => a - b);
      return `${window * 5}s ${percentile(times, 0.5).toFixed(0)}/${(times[times.length - 1] ?? 0).toFixed(0)}`;
    })
    .join(", ");
}

const dir = mkdtempSync(join(tmpdir(), "svc-bench-fairness-"));
const file = join(dir, "rows.csv");
const results: { mode: string; alone: Latencies; during: Latencies; importSeconds: number }[] = [];
try {
  log(`writing a ${ROWS.toLocaleString("en")}-row CSV…`);
  const bytes = await writeImportFile(file, ROWS);
  for (const [mode, start] of targets()) {
    log(`${mode}: starting…`);
    const platform = await start();
    try {
      const importer = ownerApi(platform);
      const project = (await importer<{ slug: string }>("POST", "/v1/projects", { name: "Importer" })).slug;
      const imported = `/v1/projects/${project}/datasets/${(await importer<{ slug: string }>("POST", `/v1/projects/${project}/datasets`, { name: "Imported" })).slug}`;

      // Another organisation, editing a dataset of its own.
      const otherKey = await platform.newOrganizationKey();
      const other = ownerApi({ baseUrl: platform.baseUrl, ownerKey: otherKey });
      const otherProject = (await other<{ slug: string }>("POST", "/v1/projects", { name: "Other" })).slug;
      const edited = `/v1/projects/${otherProject}/datasets/${(await other<{ slug: string }>("POST", `/v1/projects/${otherProject}/datasets`, { name: "Edited" })).slug}`;
      const rows = Array.from({ length: 100 }, (_, i) => ({ id: `r${i}`, input: { question: `q${i}` } }));
      await other("POST", `${edited}/rows`, { rows });
      const edits = (options: { warmupSeconds: number; durationSeconds: number; until?: () => boolean }) =>
        pacedRequests({
          url: platform.baseUrl,
          apiKey: otherKey,
          rate: RATE,
          connections: 16,
          preconnect: 4,
          method: "PATCH",
          next: (n) => ({
            path: `${edited}/rows/r${n % rows.length}`,
            body: JSON.stringify({ expectedOutput: `edit ${n}` }),
          }),
          ...options,
        });

      log(`${mode}: ${RATE} edits/s alone for ${ALONE_SECONDS} s…`);
      const alone = latenciesOf((await edits({ warmupSeconds: 3, durationSeconds: ALONE_SECONDS })).samples);

      log(`${mode}: the same edits while ${(bytes / 2 ** 20).toFixed(0)} MiB are imported…`);
      let importing = true;
      const started = process.hrtime.bigint();
      const done = importFile(platform, imported, file).finally(() => {
        importing = false;
      });
      // Awaited below, once the edits stop: a failure meanwhile must not end the run before the
      // platform is stopped (an unhandled rejection would, and leave it running).
      done.catch(() => undefined);
      const during = await edits({ warmupSeconds: 0, durationSeconds: 3_600, until: () => !importing });
      await done;
      const importSeconds = secondsSince(started);
      log(`${mode}: during the import, each 5 s: ${timeline(during.samples)}`);
      results.push({ mode, alone, during: latenciesOf(during.samples), importSeconds });
      log(`${mode}: imported in ${importSeconds.toFixed(1)} s`);
    } finally {
      await platform.stop();
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

const ms = (value: number) => value.toFixed(0);
const table = verdictTable(
  [
    "mode",
    "edits alone: p50 / p99 ms",
    "during the import: p50 / p99 / max ms",
    "p99 from sending, ms",
    "edits (failed)",
    "import, s",
    `p99 ≤ ${TARGET_P99_MS} ms`,
  ],
  results.map(({ mode, alone, during, importSeconds }) => [
    mode,
    `${ms(alone.p50)} / ${ms(alone.p99)}`,
    `${ms(during.p50)} / ${ms(during.p99)} / ${ms(during.max)}`,
    ms(during.sentP99),
    `${during.edits} (${during.failed})`,
    importSeconds.toFixed(1),
    during.p99 <= TARGET_P99_MS && during.failed === 0,
  ]),
);
console.log(table);
if (process.argv.includes("--write")) {
  writeSection(
    "fairness",
    `## Fairness: another organisation's edits during a large import

Measured by \`npm run bench -- fairness --write\` (bench/src/fairness.ts) on ${new Date().toISOString().slice(0, 10)}, on
${machine()}, everything on the one machine. One organisation imports a ${ROWS.toLocaleString("en")}-row CSV
(bench/src/import-file.ts); another sends ${RATE} edits a second to its own dataset, open loop, each timed
from when it was due: first alone for ${ALONE_SECONDS} s (after 3 s unmeasured), then for as long as the
import runs. "p99 from sending" leaves out the generator's own waits.

${table}`,
  );
}
process.exitCode = results.every((r) => r.during.p99 <= TARGET_P99_MS && r.during.failed === 0) ? 0 : 1;
