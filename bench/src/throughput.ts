import { readFileSync, writeFileSync } from "node:fs";
import { cpus, totalmem } from "node:os";
import { join } from "node:path";
import { openDatabase } from "@svc/db";
import { sql } from "kysely";
import { root, startPlatform } from "../../e2e/src/platform";
import { type LoadResult, load } from "./load";
import { pgbenchEdits } from "./pgbench";
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

const platform = await startPlatform({
  writers: 2,
  gatewayEnv: { LOG_LEVEL: "warn" },
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
  log("edit latency on the big dataset after its history, and on a small one…");
  const editBig = checked(
    await drive(
      edit(() => "big-1", BIG_ROWS),
      { connections: 1 },
    ),
  );
  const editSmall = checked(
    await drive(
      edit(() => "small-1", 100),
      { connections: 1 },
    ),
  );
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
      `edit latency p50 (ms) after ${BIG_VERSIONS.toLocaleString("en")} versions vs a fresh dataset`,
      editBig.p50,
      editSmall.p50,
      "≤ 1.2",
      (r) => r <= 1.2,
      "big ÷ fresh",
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
): [string, string, string, string, string, boolean] {
  const ratio = subject / baseline;
  return [
    what,
    subject.toFixed(1),
    baseline.toFixed(1),
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
  return processes.flatMap((p, i) => {
    try {
      const status = readFileSync(`/proc/${p.child.pid}/status`, "utf8");
      const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN);
      const same = processes.filter((q) => q.name === p.name);
      const label = same.length > 1 ? `${p.name} #${same.indexOf(p) + 1}` : p.name;
      return Number.isNaN(kb) || i < 0 ? [] : [[label, kb / 1024] as [string, number]];
    } catch {
      return [];
    }
  });
}

function writeReport(table: string): void {
  const machine = `${cpus().length} × ${cpus()[0]?.model ?? "unknown CPU"}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`;
  const text = `# Performance

Measured by \`npm run bench\` (bench/src/throughput.ts) on ${new Date().toISOString().slice(0, 10)}, on one machine
(${machine}) running everything at once: PostgreSQL, NATS, the platform's processes (gateway, auth,
two dataset-writers, reader) and the load generator (autocannon, ${CLIENTS} connections, ${SECONDS} s per run).
Each ratio compares numbers measured side by side in the same run; the baseline for edits is
\`pgbench\` running the same one-transaction-per-edit SQL on the same database.

${table}
`;
  writeFileSync(join(root, "docs/performance.md"), text);
}

function log(message: string): void {
  console.log(`[${new Date().toISOString().slice(11, 19)}] ${message}`);
}
