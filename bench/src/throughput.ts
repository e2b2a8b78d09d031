import { readFileSync } from "node:fs";
import { openDatabase } from "@svc/db";
import { GENEROUS_RATE_LIMITS, startPlatform } from "@svc/testing/platform";
import { sql } from "kysely";
import { measureInTurns, settingsFromEnv, type Timing } from "./measure";
import { type PacedOptions, paced } from "./paced";
import { pgbenchEdits } from "./pgbench";
import { machine, writeSection } from "./report";
import { seedDatasets, seedHistory } from "./seed";
import { type WrkResult, wrk } from "./wrk";

/**
 * Throughput of the distributed platform (gateway, auth, dataset-writer, reader and trace-ingest as
 * separate processes on the local PostgreSQL and NATS), each number beside its baseline measured in
 * the same run. `--write` also writes the table to docs/performance.md.
 */
const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const BIG_ROWS = Number(process.env.BENCH_BIG_ROWS ?? 1_000_000);
const BIG_VERSIONS = Number(process.env.BENCH_BIG_VERSIONS ?? 100_000);
const CLIENTS = 32;
/**
 * Each pair (or trio) of compared measurements runs in turns, ROUNDS times each for SECONDS / ROUNDS,
 * and is averaged: whatever the machine does meanwhile (autovacuum after a write phase, a checkpoint)
 * then weighs on both sides alike instead of on whichever ran second.
 */
const ROUNDS = 3;
/** Whole seconds: wrk and pgbench take no fractions. */
const ROUND_SECONDS = Math.max(1, Math.round(SECONDS / ROUNDS));
/** Each paced phase first runs this long at its rate, unmeasured (see `paced`). */
const WARMUP_SECONDS = 5;
/** How many 200-row pages into the big dataset the deep list reads start. */
const DEEP_PAGES = Number(process.env.BENCH_DEEP_PAGES ?? 1000);

// One writer: on two cores a second one only competes for the CPU (it serves when one fails, which
// the fault tests show); on a bigger machine, more writers share the load.
const platform = await startPlatform({
  writers: 1,
  // The writer's settings can be tried from the command line: SVC_WRITER_STALL_MS=20 npm run bench.
  writerEnv: () => settingsFromEnv(["SVC_WRITER_STALL_MS", "SVC_WRITER_MAX_TRANSACTIONS"]),
  // 32 clients on one key: limits far above the load, so that the limiter's cost is measured, not its refusals.
  gatewayEnv: { LOG_LEVEL: "warn", ...GENEROUS_RATE_LIMITS },
});
const handle = await openDatabase({ url: platform.databaseUrl, poolSize: 2 });
const db = handle.db;
try {
  const owner = { authorization: `Bearer ${platform.ownerKey}`, "content-type": "application/json" };
  const project = await fetch(`${platform.baseUrl}/v1/projects`, {
    method: "POST",
    headers: owner,
    body: JSON.stringify({ name: "bench" }),
  }).then((r) => r.json() as Promise<{ id: string; organizationId: string }>);
  const seed = (idPrefix: string, slugPrefix: string, count: number, rows: number) =>
    seedDatasets(db, {
      organizationId: project.organizationId,
      projectId: project.id,
      idPrefix,
      slugPrefix,
      count,
      rows,
    });

  log("seeding 1,000 datasets for the platform and 1,000 for pgbench…");
  await seed("svs-", "spread-", 1000, 10);
  await seed("pgs-", "pg-spread-", 1000, 10);
  await seed("svh-", "hot-", 1, 1000);
  await seed("pgh-", "pg-hot-", 1, 1000);
  await seed("sml-", "small-", 1, 100);
  log(
    `seeding a dataset of ${BIG_ROWS.toLocaleString("en")} rows with ${BIG_VERSIONS.toLocaleString("en")} versions…`,
  );
  await seed("big-", "big-", 1, BIG_ROWS);
  await seedHistory(db, "big-1", BIG_VERSIONS);
  await sql`VACUUM ANALYZE`.execute(db);

  /**
   * The write phases leave the database a backlog: dead row versions that autovacuum would clean up
   * and dirty pages that a checkpoint would write, hundreds of megabytes of them after seeding. A
   * latency phase starts once that is done, so that it times the platform rather than PostgreSQL
   * catching up on the benchmark's own earlier load (pgbench's included).
   */
  const settle = async () => {
    await sql`VACUUM ANALYZE`.execute(db);
    await sql`CHECKPOINT`.execute(db);
  };
  const base = `/v1/projects/bench/datasets`;
  const get = async (path: string) => {
    // A kept-alive connection the gateway has just closed after the last load fails once: retry it.
    const response = await fetch(`${platform.baseUrl}${path}`, { headers: owner }).catch(() =>
      fetch(`${platform.baseUrl}${path}`, { headers: owner }),
    );
    if (!response.ok) throw new Error(`GET ${path} answered ${response.status}`);
    return response.json() as Promise<{ nextCursor: string | null }>;
  };
  const cursorAfter = async (path: string, pages: number) => {
    let cursor = "";
    for (let i = 0; i < pages; i++) {
      const page = await get(`${path}?limit=200${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
      if (!page.nextCursor) throw new Error(`${path} has fewer than ${pages} pages`);
      cursor = page.nextCursor;
    }
    return cursor;
  };
  let serial = 0;
  const serialEdit = (dataset: string, rows: number) => async () => {
    const n = serial++;
    const response = await fetch(`${platform.baseUrl}${base}/${dataset}/rows/r${(n * 7919) % rows}`, {
      method: "PATCH",
      headers: owner,
      body: JSON.stringify({ expectedOutput: { answer: n } }),
    });
    if (response.status !== 200) throw new Error(`edit answered ${response.status}`);
    await response.arrayBuffer();
  };
  // wrk builds each request in Lua from n, its number: the same spread of datasets and rows as pgbench.
  const editBody = `string.format('{"expectedOutput":{"answer":%d}}', n)`;
  const drive = (method: "GET" | "PATCH", path: string, seconds = ROUND_SECONDS) =>
    checked(
      wrk({
        url: platform.baseUrl,
        apiKey: platform.ownerKey,
        connections: CLIENTS,
        durationSeconds: seconds,
        method,
        path,
        ...(method === "PATCH" ? { body: editBody } : {}),
      }),
    );
  const fixed = (path: string) => JSON.stringify(path);

  const spreadPath = `string.format("${base}/spread-%d/rows/r%d", 1 + (n * 31) % 1000, (n * 7919) % 10)`;
  const pgbench = (datasets: number, rows: number, prefix: string) => () =>
    pgbenchEdits({
      databaseUrl: platform.databaseUrl,
      datasets,
      rows,
      prefix,
      clients: CLIENTS,
      seconds: ROUND_SECONDS,
    });
  log("edits spread over 1,000 datasets, and pgbench's, in turns…");
  const [spread, pgSpread] = interleaved([
    () => drive("PATCH", spreadPath).requestsPerSecond,
    pgbench(1000, 10, "pgs-"),
  ] as const);
  log("edits of one hot dataset, and pgbench's, in turns…");
  const [hot, pgHot] = interleaved([
    () => drive("PATCH", `string.format("${base}/hot-1/rows/r%d", (n * 7919) % 1000)`).requestsPerSecond,
    pgbench(1, 1000, "pgh-"),
  ] as const);
  log("latency at half the maximum rate, paced…");
  const halfRate = Math.floor(spread / 2);
  const pacedAtHalfRate = async (method: "GET" | "PATCH", next: PacedOptions["next"]) => {
    await settle();
    return paced({
      url: platform.baseUrl,
      apiKey: platform.ownerKey,
      rate: halfRate,
      warmupSeconds: WARMUP_SECONDS,
      durationSeconds: SECONDS,
      connections: CLIENTS,
      method,
      next,
    });
  };
  const half = await pacedAtHalfRate("PATCH", (n) => ({
    path: `${base}/spread-${1 + ((n * 17) % 1000)}/rows/r${(n * 7919) % 10}`,
    body: JSON.stringify({ expectedOutput: { answer: n } }),
  }));
  if (half.failures > 0) throw new Error(`${half.failures} of the paced edits failed`);
  // What this machine allows any request that crosses the bus: one hop and one query, at the same rate.
  const floor = await pacedAtHalfRate("GET", () => ({ path: "/v1/account" }));
  log("list pages: a small dataset, the big one's first page and one deep inside, in turns…");
  const deepCursor = await cursorAfter(`${base}/big-1/rows`, DEEP_PAGES);
  const list = (path: string) => () => drive("GET", fixed(path)).requestsPerSecond;
  const [listSmall, listBig, listDeep] = interleaved([
    list(`${base}/small-1/rows?limit=50`),
    list(`${base}/big-1/rows?limit=50`),
    list(`${base}/big-1/rows?limit=50&cursor=${encodeURIComponent(deepCursor)}`),
  ] as const);
  log(
    "edit latency on the big dataset after its history, and on a fresh one (serial, in turns, 200 samples each)…",
  );
  const [editBig, editSmall] = (await measureInTurns([
    serialEdit("big-1", BIG_ROWS),
    serialEdit("small-1", 100),
  ])) as [Timing, Timing];
  const memory = peakMemory(platform.processes);

  /** measurement, svc, baseline, ratio, target, and whether it is met (null: nothing to meet). */
  const rows: [string, string, string, string, string, boolean | null][] = [
    ratioRow("edits/s, 32 clients, spread over 1,000 datasets", spread, pgSpread, "≥ 1.0×", (r) => r >= 1),
    ratioRow("edits/s, 32 clients, one hot dataset", hot, pgHot, "≥ 2.0×", (r) => r >= 2),
    [
      `edit latency at half the maximum rate (${halfRate}/s, paced)`,
      `p50 ${half.p50.toFixed(1)} ms, p99 ${half.p99.toFixed(1)} ms`,
      "—",
      "—",
      "p99 ≤ 20 ms",
      half.p99 <= 20,
    ],
    [
      `for comparison: GET /v1/account (one bus round trip, one query) at the same rate, paced`,
      `p50 ${floor.p50.toFixed(1)} ms, p99 ${floor.p99.toFixed(1)} ms`,
      "—",
      "—",
      "—",
      null,
    ],
    ratioRow(
      `list-rows pages/s, ${BIG_ROWS.toLocaleString("en")} rows vs 100 rows`,
      listSmall,
      listBig,
      "≤ 1.2",
      (r) => r <= 1.2,
      "small ÷ big",
    ),
    ratioRow(
      `list-rows pages/s, ${BIG_ROWS.toLocaleString("en")} rows ${(DEEP_PAGES * 200).toLocaleString("en")} rows deep vs 100 rows`,
      listSmall,
      listDeep,
      "≤ 1.2",
      (r) => r <= 1.2,
      "small ÷ deep",
    ),
    ratioRow(
      `edit latency median (ms), ${BIG_ROWS.toLocaleString("en")} rows after ${BIG_VERSIONS.toLocaleString("en")} versions vs a fresh 100-row dataset`,
      editBig.median,
      editSmall.median,
      "≤ 1.2",
      (r) => r <= 1.2,
      "big ÷ fresh",
      2,
    ),
    ...memory.map(
      ([name, mb]) =>
        [`peak RSS of ${name}`, `${mb.toFixed(0)} MB`, "—", "—", "≤ 200 MB", mb <= 200] as [
          string,
          string,
          string,
          string,
          string,
          boolean,
        ],
    ),
  ];
  const table = [
    "| measurement | svc | baseline | ratio | target | |",
    "|---|---|---|---|---|---|",
    ...rows.map(
      ([what, subject, baseline, ratio, target, ok]) =>
        `| ${what} | ${subject} | ${baseline} | ${ratio} | ${target} | ${ok === null ? "—" : ok ? "met" : "MISSED"} |`,
    ),
  ].join("\n");
  console.log(`\n${table}\n`);
  if (process.argv.includes("--write")) writeReport(table);
  process.exitCode = rows.every((r) => r[5] !== false) ? 0 : 1;
} finally {
  await handle.close();
  await platform.stop();
}

function ratioRow(
  what: string,
  subject: number,
  baseline: number,
  target: string,
  meets: (ratio: number) => boolean,
  how = "svc ÷ pgbench",
  digits = 1,
): [string, string, string, string, string, boolean] {
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

/** Runs the measurements in turns, ROUNDS times, and returns each one's mean. */
function interleaved<T extends readonly (() => number)[]>(measurements: T): { [K in keyof T]: number } {
  const sums = measurements.map(() => 0);
  for (let round = 0; round < ROUNDS; round++) {
    measurements.forEach((measure, i) => {
      sums[i] = (sums[i] ?? 0) + measure();
    });
  }
  return sums.map((sum) => sum / ROUNDS) as { [K in keyof T]: number };
}

function checked(result: WrkResult): WrkResult {
  if (result.errors > 0 || result.non2xx > 0) {
    throw new Error(
      `load run had ${result.errors} errors and ${result.non2xx} non-2xx answers of ${result.total}`,
    );
  }
  return result;
}

function peakMemory(processes: { name: string; child: { pid?: number | undefined } }[]): [string, number][] {
  return processes.flatMap((p) => {
    try {
      const status = readFileSync(`/proc/${p.child.pid}/status`, "utf8");
      const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN);
      const same = processes.filter((q) => q.name === p.name);
      const label = same.length > 1 ? `${p.name} #${same.indexOf(p) + 1}` : p.name;
      return Number.isNaN(kb) ? [] : [[label, kb / 1024] as [string, number]];
    } catch {
      return [];
    }
  });
}

function writeReport(table: string): void {
  writeSection(
    "throughput",
    `## Throughput of the distributed platform

Measured by \`npm run bench -- throughput --write\` (bench/src/throughput.ts) on ${new Date().toISOString().slice(0, 10)},
on one machine (${machine()}) running everything at once: PostgreSQL, NATS, the platform's processes
(gateway, auth, dataset-writer, reader, trace-ingest) and the load generator (Debian's \`wrk\`,
${CLIENTS} connections). Each ratio compares numbers measured side by side in the same run: the two (or
three) sides take turns, ${ROUNDS} times ${ROUND_SECONDS} s each, and each side's mean is shown, so that what the
machine does meanwhile weighs on both alike. The baseline for edits is \`pgbench\` running the SQL of one lone edit (version bump under
the dataset's row lock, the row update, the revision swap and the version record), one transaction per
edit, on the same database; it skips the project, column and If-Match reads that the writer makes, so
it flatters the baseline. Latency at half the maximum rate comes from an open-loop generator that
sends at a steady rate and times each edit from when it was due, for ${SECONDS} s after ${WARMUP_SECONDS} s at that rate
unmeasured, once the database has been vacuumed and checkpointed after the write phases before it.
Edit latency on the big dataset is the median of 200 serial edits, taking turns edit by edit with
those of the fresh dataset.

${table}`,
  );
}

function log(message: string): void {
  console.log(`[${new Date().toISOString().slice(11, 19)}] ${message}`);
}
