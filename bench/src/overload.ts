import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { type AcknowledgedChange, auditVersions } from "@svc/testing/audit";
import { sql } from "kysely";
import { byCommand, countCpu } from "./cpu-time";
import { h2load, outcomeOf } from "./h2load";
import { startLoadPlatform } from "./load-platform";
import { overloadTable, writeOverloadReport } from "./overload-report";
import { printTimeline, summarise } from "./overload-samples";
import {
  CONNECTIONS,
  CONTENDED_SECONDS,
  DATASETS,
  gatewaySettings,
  OVERLOAD_FACTOR,
  OVERLOAD_SECONDS,
  PEAK_CLIENTS,
  PEAK_SECONDS,
  PRECONNECT,
  ROWS,
  WARMUP_SECONDS,
  writerSettings,
} from "./overload-settings";
import { type PacedOptions, paced, pacedRequests } from "./paced";
import { allMet, log } from "./report";
import { wrk } from "./wrk";

/**
 * Bounded waits under overload: the distributed platform with one writer, its peak edit rate measured
 * first (closed loop), then edits offered at four times that rate, open loop, where every accepted
 * edit must be answered within a second, every refused one (503 or 429) within 50 ms, and no
 * acknowledged edit may be lost; then edits at half the peak rate while a process spins on a core,
 * where the 99th percentile must stay within 50 ms. `--write` records the table in docs/performance.md.
 */
const load = await startLoadPlatform({
  queueBounds: "product",
  writers: 1,
  writerEnv: () => writerSettings,
  gatewayEnv: { LOG_LEVEL: "warn", ...gatewaySettings },
});
const { platform, db } = load;
let hog: ReturnType<typeof spawn> | undefined;
try {
  log(`seeding ${DATASETS} datasets of ${ROWS} rows…`);
  await load.seed("ovl-", "edit-", DATASETS, ROWS);
  await sql`VACUUM ANALYZE`.execute(db);
  const base = "/v1/projects/bench/datasets";
  /** The n-th edit: a spread over the datasets and their rows, each setting a value of its own. */
  const edit = (n: number) => {
    const dataset = 1 + ((n * 17) % DATASETS);
    const row = (n * 7919) % ROWS;
    return { dataset, row, path: `${base}/edit-${dataset}/rows/r${row}` };
  };
  const editBody = (n: number) => JSON.stringify({ expectedOutput: { answer: n } });

  log(`peak edit rate: ${PEAK_CLIENTS} clients, closed loop, ${PEAK_SECONDS} s after 3 s unmeasured…`);
  const closedLoop = (seconds: number) =>
    wrk({
      url: platform.baseUrl,
      apiKey: platform.ownerKey,
      connections: PEAK_CLIENTS,
      durationSeconds: seconds,
      method: "PATCH",
      path: `string.format("${base}/edit-%d/rows/r%d", 1 + (n * 17) % ${DATASETS}, (n * 7919) % ${ROWS})`,
      body: `string.format('{"expectedOutput":{"answer":%d}}', n)`,
    });
  closedLoop(3);
  const peakRun = closedLoop(PEAK_SECONDS);
  if (peakRun.errors > 0 || peakRun.non2xx > 0) {
    throw new Error(`the peak run had ${peakRun.errors} errors and ${peakRun.non2xx} non-2xx answers`);
  }
  const peak = peakRun.requestsPerSecond;
  await load.settle();

  const overloadRate = Math.round(OVERLOAD_FACTOR * peak);
  log(`${OVERLOAD_FACTOR}× the peak (${overloadRate}/s), open loop, ${CONNECTIONS} connections…`);
  const generatorLoop = monitorEventLoopDelay({ resolution: 10 });
  generatorLoop.enable();
  const cpu = countCpu({
    gateway: pidsOf("gateway"),
    "dataset-writer": pidsOf("dataset-writer"),
    auth: pidsOf("auth"),
    // Other work on the machine may use the same PostgreSQL and NATS: only this database's connections count.
    "PostgreSQL (this database)": byCommand(
      "postgres",
      ` ${new URL(platform.databaseUrl).pathname.slice(1)} `,
    ),
    "NATS (shared)": byCommand("nats-server"),
    "load generator": () => [process.pid],
  });
  const overloadStarted = performance.now();
  const overload = await pacedRequests({
    ...loadAt(overloadRate, OVERLOAD_SECONDS),
    connections: CONNECTIONS,
    preconnect: PRECONNECT,
    keepBody: () => true,
  });
  const overloadWall = (performance.now() - overloadStarted) / 1000;
  const cpuSeconds = cpu();
  generatorLoop.disable();
  const outcome = summarise(overload.samples);
  log("auditing every acknowledged edit in the database…");
  const acknowledged = overload.samples.flatMap((sample): AcknowledgedChange[] => {
    if (sample.status !== 200 || sample.body === undefined) return [];
    const { dataset, row } = edit(sample.n);
    const { versionId, version } = JSON.parse(sample.body) as { versionId: string; version: number };
    return [
      {
        datasetId: `ovl-${dataset}`,
        rowId: `r${row}`,
        versionId,
        version,
        expectedOutput: { answer: sample.n },
      },
    ];
  });
  const audit = await auditVersions(platform.databaseUrl, acknowledged).then(
    () => "",
    (error: Error) => error.message,
  );
  printTimeline(overload.samples);
  // For a closer look at where the time went: every request of the overload, one JSON line each.
  const dump = process.env.BENCH_OVERLOAD_DUMP;
  if (dump) {
    writeFileSync(dump, `${overload.samples.map((sample) => JSON.stringify(sample)).join("\n")}\n`);
    log(`every request of the overload written to ${dump}`);
  }

  // The same overload again from a native generator (h2load), whose own waits are not in its times:
  // the restated target of the overload (p99s, every acknowledged edit written).
  const nativeClients = Math.min(CONNECTIONS, 2048);
  log(`${OVERLOAD_FACTOR}× the peak (${overloadRate}/s) from h2load, ${nativeClients} connections…`);
  await load.settle();
  const versionsBefore = await writtenVersions();
  const native = h2load({
    baseUrl: platform.baseUrl,
    apiKey: platform.ownerKey,
    clients: nativeClients,
    rate: overloadRate,
    durationSeconds: WARMUP_SECONDS + OVERLOAD_SECONDS,
    method: "PATCH",
    paths: Array.from({ length: DATASETS * ROWS }, (_, n) => edit(n).path),
    body: JSON.stringify({ expectedOutput: { answer: "h2load" } }),
  });
  const nativeOutcome = outcomeOf(native.requests, WARMUP_SECONDS);
  // Each acknowledged edit of a row is a version of its own: fewer versions than 200s is an edit lost.
  const nativeWritten = (await writtenVersions()) - versionsBefore;

  const halfRate = Math.round(peak / 2);
  log(`half the peak (${halfRate}/s), paced, alone…`);
  await load.settle();
  const alone = await paced({ ...loadAt(halfRate, CONTENDED_SECONDS), connections: PEAK_CLIENTS });
  log(`half the peak (${halfRate}/s), paced, beside a process spinning on a core…`);
  await load.settle();
  hog = spawn(process.execPath, ["-e", "for(;;){}"], { stdio: "ignore" });
  const contended = await paced({ ...loadAt(halfRate, CONTENDED_SECONDS), connections: PEAK_CLIENTS });
  stopHog();

  const { table, rows } = overloadTable({
    peak,
    overloadRate,
    outcome,
    generatorDelay: { p99: generatorLoop.percentile(99) / 1e6, max: generatorLoop.max / 1e6 },
    overloadWall,
    cpuSeconds,
    audit,
    acknowledged: acknowledged.length,
    halfRate,
    alone,
    contended,
    native: {
      outcome: nativeOutcome,
      clients: nativeClients,
      sentPerSecond: native.sentPerSecond,
      written: nativeWritten,
    },
  });
  console.log(`\n${table}\n`);
  if (audit !== "") console.log(audit);
  if (process.argv.includes("--write")) writeOverloadReport(table);
  process.exitCode = allMet(rows) ? 0 : 1;

  function loadAt(rate: number, seconds: number): Omit<PacedOptions, "connections"> {
    return {
      url: platform.baseUrl,
      apiKey: platform.ownerKey,
      rate,
      warmupSeconds: WARMUP_SECONDS,
      durationSeconds: seconds,
      method: "PATCH",
      next: (n) => ({ path: edit(n).path, body: editBody(n) }),
    };
  }
} finally {
  stopHog();
  await load.stop();
}

/** Versions written so far to the benchmark's datasets. */
async function writtenVersions(): Promise<number> {
  const { rows } = await sql<{ versions: string }>`
    SELECT coalesce(sum(current_version), 0) AS versions FROM datasets WHERE id LIKE 'ovl-%'`.execute(db);
  return Number(rows[0]?.versions ?? 0);
}

function stopHog(): void {
  if (hog?.pid !== undefined && hog.exitCode === null && hog.signalCode === null)
    process.kill(hog.pid, "SIGKILL");
}

function pidsOf(name: string): () => number[] {
  return () =>
    platform.processes.flatMap((p) => (p.name === name && p.child.pid !== undefined ? [p.child.pid] : []));
}
