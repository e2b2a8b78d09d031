import { readFileSync } from "node:fs";
import { openDatabase } from "@svc/db";
import { sql } from "kysely";
import { GENEROUS_RATE_LIMITS, startPlatform } from "../../e2e/src/platform";
import { type LoadResult, load } from "./load";
import { measure } from "./measure";
import { pgbenchEdits } from "./pgbench";
import { machine, writeSection } from "./report";
import { seedDatasets, seedHistory } from "./seed";

/**
 * Throughput of the distributed platform (gateway, auth, two dataset-writers and a reader as
 * separate processes on the local PostgreSQL and NATS), each number beside its baseline measured in
 * the same run. `--write` also writes the table to docs/performance.md.
 */
const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const BIG_ROWS = Number(process.env.BENCH_BIG_ROWS ?? 1_000_000);
const BIG_VERSIONS = Number(process.env.BENCH_BIG_VERSIONS ?? 100_000);
const CLIENTS = 32;
/** How many 200-row pages into the big dataset the deep list reads start. */
const DEEP_PAGES = Number(process.env.BENCH_DEEP_PAGES ?? 1000);

const platform = await startPlatform({
  writers: 2,
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

  const base = `/v1/projects/bench/datasets`;
  const get = async (path: string) => {
    const response = await fetch(`${platform.baseUrl}${path}`, { headers: owner });
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
  const edit = (dataset: (n: number) => string, rows: number) => (n: number) => ({
    path: `${base}/${dataset(n)}/rows/r${(n * 7919) % rows}`,
    body: JSON.stringify({ expectedOutput: { answer: n } }),
  });
  const drive = (
    next: (n: number) => { path: string; body?: string },
    extra: Partial<Parameters<typeof load>[0]> = {},
  ) =>
    load({
      url: platform.baseUrl,
      apiKey: platform.ownerKey,
      connections: CLIENTS,
      durationSeconds: SECONDS,
      method: "PATCH",
      next,
      ...extra,
    });

  log("edits spread over 1,000 datasets…");
  const spread = checked(await drive(edit((n) => `spread-${1 + ((n * 31) % 1000)}`, 10)));
  const pgSpread = pgbenchEdits({
    databaseUrl: platform.databaseUrl,
    datasets: 1000,
    rows: 10,
    prefix: "pgs-",
    clients: CLIENTS,
    seconds: SECONDS,
  });
  log("edits of one hot dataset…");
  const hot = checked(await drive(edit(() => "hot-1", 1000)));
  const pgHot = pgbenchEdits({
    databaseUrl: platform.databaseUrl,
    datasets: 1,
    rows: 1000,
    prefix: "pgh-",
    clients: CLIENTS,
    seconds: SECONDS,
  });
  log("latency at half the maximum rate…");
  const half = checked(
    await drive(
      edit((n) => `spread-${1 + ((n * 17) % 1000)}`, 10),
      { overallRate: Math.floor(spread.requestsPerSecond / 2) },
    ),
  );
  log("list pages on the big dataset and on a small one…");
  const listBig = checked(await drive(() => ({ path: `${base}/big-1/rows?limit=50` }), { method: "GET" }));
  const listSmall = checked(
    await drive(() => ({ path: `${base}/small-1/rows?limit=50` }), { method: "GET" }),
  );
  log("list pages deep inside the big dataset…");
  const deepCursor = await cursorAfter(`${base}/big-1/rows`, DEEP_PAGES);
  const listDeep = checked(
    await drive(() => ({ path: `${base}/big-1/rows?limit=50&cursor=${encodeURIComponent(deepCursor)}` }), {
      method: "GET",
    }),
  );
  log("edit latency on the big dataset after its history, and on a fresh one (serial, 200 samples)…");
  const editBig = await measure(serialEdit("big-1", BIG_ROWS));
  const editSmall = await measure(serialEdit("small-1", 100));
  const memory = peakMemory(platform.processes);

  const rows: [string, string, string, string, string, boolean][] = [
    ratioRow(
      "edits/s, 32 clients, spread over 1,000 datasets",
      spread.requestsPerSecond,
      pgSpread,
      "≥ 1.0×",
      (r) => r >= 1,
    ),
    ratioRow("edits/s, 32 clients, one hot dataset", hot.requestsPerSecond, pgHot, "≥ 2.0×", (r) => r >= 2),
    [
      `edit latency at half the maximum rate (${Math.floor(spread.requestsPerSecond / 2)}/s)`,
      `p50 ${half.p50} ms, p99 ${half.p99} ms`,
      "—",
      "—",
      "p99 ≤ 20 ms",
      half.p99 <= 20,
    ],
    ratioRow(
      `list-rows pages/s, ${BIG_ROWS.toLocaleString("en")} rows vs 100 rows`,
      listSmall.requestsPerSecond,
      listBig.requestsPerSecond,
      "≤ 1.2",
      (r) => r <= 1.2,
      "small ÷ big",
    ),
    ratioRow(
      `list-rows pages/s, ${BIG_ROWS.toLocaleString("en")} rows ${(DEEP_PAGES * 200).toLocaleString("en")} rows deep vs 100 rows`,
      listSmall.requestsPerSecond,
      listDeep.requestsPerSecond,
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
        `| ${what} | ${subject} | ${baseline} | ${ratio} | ${target} | ${ok ? "met" : "MISSED"} |`,
    ),
  ].join("\n");
  console.log(`\n${table}\n`);
  if (process.argv.includes("--write")) writeReport(table);
  process.exitCode = rows.every((r) => r[5]) ? 0 : 1;
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

function checked(result: LoadResult): LoadResult {
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
(gateway, auth, two dataset-writers, reader, trace-ingest) and the load generator (autocannon,
${CLIENTS} connections, ${SECONDS} s per run). Each ratio compares numbers measured side by side in the
same run. The baseline for edits is \`pgbench\` running the SQL of one lone edit (version bump under
the dataset's row lock, the row update, the revision swap and the version record), one transaction per
edit, on the same database; it skips the project, column and If-Match reads that the writer makes, so
it flatters the baseline. Edit latency on the big dataset is the median of 200 serial edits.

${table}`,
  );
}

function log(message: string): void {
  console.log(`[${new Date().toISOString().slice(11, 19)}] ${message}`);
}
