import { readFileSync } from "node:fs";
import { GENEROUS_RATE_LIMITS } from "@svc/testing/platform";
import { sql } from "kysely";
import { startLoadPlatform } from "./load-platform";
import { meansInTurns, measureInTurns, settingsFromEnv, type Timing } from "./measure";
import { type PacedOptions, paced } from "./paced";
import { pgbenchEdits } from "./pgbench";
import { allMet, log } from "./report";
import { seedHistory } from "./seed";
import { throughputTable, writeThroughputReport } from "./throughput-report";
import {
  BIG_ROWS,
  BIG_VERSIONS,
  CLIENTS,
  DEEP_PAGES,
  ROUND_SECONDS,
  ROUNDS,
  SECONDS,
  WARMUP_SECONDS,
} from "./throughput-settings";
import { type WrkResult, wrk } from "./wrk";

/**
 * Throughput of the distributed platform (gateway, auth, dataset-writer, reader and trace-ingest as
 * separate processes on the local PostgreSQL and NATS), each number beside its baseline measured in
 * the same run. `--write` also writes the table to docs/performance.md.
 */
// One writer: on two cores a second one only competes for the CPU (it serves when one fails, which
// the fault tests show); on a bigger machine, more writers share the load.
const load = await startLoadPlatform({
  writers: 1,
  // The writer's settings can be tried from the command line: SVC_WRITER_STALL_MS=20 npm run bench.
  writerEnv: () => settingsFromEnv(["SVC_WRITER_STALL_MS", "SVC_WRITER_MAX_TRANSACTIONS"]),
  // 32 clients on one key: limits far above the load, so that the limiter's cost is measured, not its refusals.
  gatewayEnv: { LOG_LEVEL: "warn", ...GENEROUS_RATE_LIMITS },
});
const { platform, db, seed } = load;
try {
  const owner = { authorization: `Bearer ${platform.ownerKey}`, "content-type": "application/json" };
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
  const [spread, pgSpread] = meansInTurns(
    [() => drive("PATCH", spreadPath).requestsPerSecond, pgbench(1000, 10, "pgs-")] as const,
    ROUNDS,
  );
  log("edits of one hot dataset, and pgbench's, in turns…");
  const [hot, pgHot] = meansInTurns(
    [
      () => drive("PATCH", `string.format("${base}/hot-1/rows/r%d", (n * 7919) % 1000)`).requestsPerSecond,
      pgbench(1, 1000, "pgh-"),
    ] as const,
    ROUNDS,
  );
  log("latency at half the maximum rate, paced…");
  const halfRate = Math.floor(spread / 2);
  const pacedAtHalfRate = async (method: "GET" | "PATCH", next: PacedOptions["next"]) => {
    await load.settle();
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
  const [listSmall, listBig, listDeep] = meansInTurns(
    [
      list(`${base}/small-1/rows?limit=50`),
      list(`${base}/big-1/rows?limit=50`),
      list(`${base}/big-1/rows?limit=50&cursor=${encodeURIComponent(deepCursor)}`),
    ] as const,
    ROUNDS,
  );
  log(
    "edit latency on the big dataset after its history, and on a fresh one (serial, in turns, 200 samples each)…",
  );
  const [editBig, editSmall] = (await measureInTurns([
    serialEdit("big-1", BIG_ROWS),
    serialEdit("small-1", 100),
  ])) as [Timing, Timing];

  const { table, rows } = throughputTable({
    spread,
    pgSpread,
    hot,
    pgHot,
    halfRate,
    half,
    floor,
    listSmall,
    listBig,
    listDeep,
    editBig,
    editSmall,
    memory: peakMemory(platform.processes),
  });
  console.log(`\n${table}\n`);
  if (process.argv.includes("--write")) writeThroughputReport(table);
  process.exitCode = allMet(rows) ? 0 : 1;
} finally {
  await load.stop();
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
