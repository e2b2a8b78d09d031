import type { Timing } from "./measure";
import type { PacedResult } from "./paced";
import { machine, type VerdictRow, verdictTable, writeSection } from "./report";
import * as settings from "./throughput-settings";

/** What a run of the throughput benchmark measured, for its table. */
export interface ThroughputMeasurements {
  /** Edits per second spread over 1,000 datasets: the platform's, and pgbench's. */
  spread: number;
  pgSpread: number;
  /** Edits per second of one hot dataset: the platform's, and pgbench's. */
  hot: number;
  pgHot: number;
  halfRate: number;
  /** Edits at half the spread rate, paced. */
  half: PacedResult;
  /** GET /v1/account at the same rate, paced. */
  floor: PacedResult;
  /** List pages per second: of a small dataset, of the big one's first page, and of one deep inside it. */
  listSmall: number;
  listBig: number;
  listDeep: number;
  /** Serial edits of the big dataset after its history, and of a fresh one. */
  editBig: Timing;
  editSmall: Timing;
  /** Peak resident memory of each process, in MB. */
  memory: [string, number][];
}

function ratioRow(
  what: string,
  subject: number,
  baseline: number,
  target: string,
  meets: (ratio: number) => boolean,
  how = "svc ÷ pgbench",
  digits = 1,
): VerdictRow {
  const ratio = subject / baseline;
  return [
    what,
    subject.toFixed(digits),
    baseline.toFixed(digits),
    `${ratio.toFixed(2)} (${how})`,
    target,
    meets(ratio),
  ];
}

/** The throughput's table (measurement, svc, baseline, ratio, target, verdict), and its rows. */
export function throughputTable(m: ThroughputMeasurements): { table: string; rows: VerdictRow[] } {
  const rows: VerdictRow[] = [
    ratioRow(
      "edits/s, 32 clients, spread over 1,000 datasets",
      m.spread,
      m.pgSpread,
      "≥ 1.0×",
      (r) => r >= 1,
    ),
    ratioRow("edits/s, 32 clients, one hot dataset", m.hot, m.pgHot, "≥ 2.0×", (r) => r >= 2),
    [
      `edit latency at half the maximum rate (${m.halfRate}/s, paced)`,
      `p50 ${m.half.p50.toFixed(1)} ms, p99 ${m.half.p99.toFixed(1)} ms`,
      "—",
      "—",
      "p99 ≤ 20 ms",
      m.half.p99 <= 20,
    ],
    [
      `for comparison: GET /v1/account (one bus round trip, one query) at the same rate, paced`,
      `p50 ${m.floor.p50.toFixed(1)} ms, p99 ${m.floor.p99.toFixed(1)} ms`,
      "—",
      "—",
      "—",
      null,
    ],
    ratioRow(
      `list-rows pages/s, ${settings.BIG_ROWS.toLocaleString("en")} rows vs 100 rows`,
      m.listSmall,
      m.listBig,
      "≤ 1.2",
      (r) => r <= 1.2,
      "small ÷ big",
    ),
    ratioRow(
      `list-rows pages/s, ${settings.BIG_ROWS.toLocaleString("en")} rows ${(settings.DEEP_PAGES * 200).toLocaleString("en")} rows deep vs 100 rows`,
      m.listSmall,
      m.listDeep,
      "≤ 1.2",
      (r) => r <= 1.2,
      "small ÷ deep",
    ),
    ratioRow(
      `edit latency median (ms), ${settings.BIG_ROWS.toLocaleString("en")} rows after ${settings.BIG_VERSIONS.toLocaleString("en")} versions vs a fresh 100-row dataset`,
      m.editBig.median,
      m.editSmall.median,
      "≤ 1.2",
      (r) => r <= 1.2,
      "big ÷ fresh",
      2,
    ),
    ...m.memory.map(
      ([name, mb]): VerdictRow => [
        `peak RSS of ${name}`,
        `${mb.toFixed(0)} MB`,
        "—",
        "—",
        "≤ 200 MB",
        mb <= 200,
      ],
    ),
  ];
  return { table: verdictTable(["measurement", "svc", "baseline", "ratio", "target"], rows), rows };
}

export function writeThroughputReport(table: string): void {
  writeSection(
    "throughput",
    `## Throughput of the distributed platform

Measured by \`npm run bench -- throughput --write\` (bench/src/throughput.ts) on ${new Date().toISOString().slice(0, 10)},
on one machine (${machine()}) running everything at once: PostgreSQL, NATS, the platform's processes
(gateway, auth, dataset-writer, reader, trace-ingest) and the load generator (Debian's \`wrk\`,
${settings.CLIENTS} connections). Each ratio compares numbers measured side by side in the same run: the two (or
three) sides take turns, ${settings.ROUNDS} times ${settings.ROUND_SECONDS} s each, and each side's mean is shown, so that what the
machine does meanwhile weighs on both alike. The baseline for edits is \`pgbench\` running the SQL of one lone edit (version bump under
the dataset's row lock, the row update, the revision swap and the version record), one transaction per
edit, on the same database; it skips the project, column and If-Match reads that the writer makes, so
it flatters the baseline. Latency at half the maximum rate comes from an open-loop generator that
sends at a steady rate and times each edit from when it was due, for ${settings.SECONDS} s after ${settings.WARMUP_SECONDS} s at that rate
unmeasured, once the database has been vacuumed and checkpointed after the write phases before it.
Edit latency on the big dataset is the median of 200 serial edits, taking turns edit by edit with
those of the fresh dataset.

${table}`,
  );
}
