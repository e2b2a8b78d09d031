import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { openDatabase } from "@svc/db";
import { type AcknowledgedChange, auditVersions } from "@svc/testing/audit";
import { startPlatform } from "@svc/testing/platform";
import { sql } from "kysely";
import { byCommand, countCpu } from "./cpu-time";
import { percentile, settingsFromEnv } from "./measure";
import { type PacedOptions, type PacedSample, paced, pacedRequests } from "./paced";
import { machine, writeSection } from "./report";
import { seedDatasets } from "./seed";
import { wrk } from "./wrk";

/**
 * Bounded waits under overload: the distributed platform with one writer, its peak edit rate measured
 * first (closed loop), then edits offered at four times that rate, open loop, where every accepted
 * edit must be answered within a second, every refused one (503 or 429) within 50 ms, and no
 * acknowledged edit may be lost; then edits at half the peak rate while a process spins on a core,
 * where the 99th percentile must stay within 50 ms. `--write` records the table in docs/performance.md.
 */
const PEAK_SECONDS = Number(process.env.BENCH_PEAK_SECONDS ?? 10);
const OVERLOAD_SECONDS = Number(process.env.BENCH_OVERLOAD_SECONDS ?? 20);
const CONTENDED_SECONDS = Number(process.env.BENCH_CONTENDED_SECONDS ?? 15);
/** Each paced phase first runs this long at its rate, unmeasured (see `paced`). */
const WARMUP_SECONDS = 3;
const OVERLOAD_FACTOR = 4;
/**
 * Connections of the open-loop generator under overload: as many as a second of the offered load
 * could hold, far more than the gateway takes at once (SVC_GATEWAY_MAX_IN_FLIGHT, 1,024 by default),
 * so that the gateway's limits are what refuses, not the generator's sockets: a connection is busy
 * only until the platform answers, so a request left waiting for one would hide the platform's time
 * in the generator's. One that still finds none free waits, which its send time shows.
 */
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 8192);
/**
 * All of them opened before the overload starts, a hundred at a time. Thousands of connections
 * opened at once overflow the gateway's listen backlog, and a connection caught in it waits for the
 * kernel to retry its handshake, after 1, 3, 7, 15 and 31 s: edits answered 200 twenty or thirty
 * seconds after they were sent, in bursts, in the first runs. A flood of new connections is a test of
 * its own; this one is of the waits of requests the platform has been sent.
 */
const PRECONNECT = CONNECTIONS;
/** Closed-loop clients of the peak measurement, as in the throughput benchmark. */
const PEAK_CLIENTS = 32;
const DATASETS = 100;
const ROWS = 10;
const ACCEPTED_WITHIN_MS = 1_000;
const REFUSED_WITHIN_MS = 50;
const CONTENDED_P99_MS = 50;

// Settings of the shedding that can be tried from the command line: SVC_GATEWAY_MAX_QUEUE_MS=200 npm run bench -- overload.
const gatewaySettings = settingsFromEnv(["SVC_GATEWAY_MAX_IN_FLIGHT", "SVC_GATEWAY_MAX_QUEUE_MS"]);
const writerSettings = settingsFromEnv([
  "SVC_WRITER_MAX_QUEUE_MS",
  "SVC_WRITER_STALL_MS",
  "SVC_WRITER_MAX_TRANSACTIONS",
]);

const platform = await startPlatform({
  queueBounds: "product",
  writers: 1,
  writerEnv: () => writerSettings,
  gatewayEnv: { LOG_LEVEL: "warn", ...gatewaySettings },
});
const handle = await openDatabase({ url: platform.databaseUrl, poolSize: 2 });
const db = handle.db;
let hog: ReturnType<typeof spawn> | undefined;
try {
  const owner = { authorization: `Bearer ${platform.ownerKey}`, "content-type": "application/json" };
  const project = await fetch(`${platform.baseUrl}/v1/projects`, {
    method: "POST",
    headers: owner,
    body: JSON.stringify({ name: "bench" }),
  }).then((r) => r.json() as Promise<{ id: string; organizationId: string }>);
  log(`seeding ${DATASETS} datasets of ${ROWS} rows…`);
  await seedDatasets(db, {
    organizationId: project.organizationId,
    projectId: project.id,
    idPrefix: "ovl-",
    slugPrefix: "edit-",
    count: DATASETS,
    rows: ROWS,
  });
  await sql`VACUUM ANALYZE`.execute(db);
  const base = "/v1/projects/bench/datasets";
  /** The n-th edit: a spread over the datasets and their rows, each setting a value of its own. */
  const edit = (n: number) => {
    const dataset = 1 + ((n * 17) % DATASETS);
    const row = (n * 7919) % ROWS;
    return { dataset, row, path: `${base}/edit-${dataset}/rows/r${row}` };
  };
  const editBody = (n: number) => JSON.stringify({ expectedOutput: { answer: n } });
  const settle = async () => {
    await sql`VACUUM ANALYZE`.execute(db);
    await sql`CHECKPOINT`.execute(db);
  };

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
  await settle();

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

  const halfRate = Math.round(peak / 2);
  log(`half the peak (${halfRate}/s), paced, alone…`);
  await settle();
  const alone = await paced({ ...loadAt(halfRate, CONTENDED_SECONDS), connections: PEAK_CLIENTS });
  log(`half the peak (${halfRate}/s), paced, beside a process spinning on a core…`);
  await settle();
  hog = spawn(process.execPath, ["-e", "for(;;){}"], { stdio: "ignore" });
  const contended = await paced({ ...loadAt(halfRate, CONTENDED_SECONDS), connections: PEAK_CLIENTS });
  stopHog();

  const ms = (value: number) => `${value.toFixed(1)} ms`;
  const spread = (values: Latencies) => `p50 ${ms(values.p50)}, p99 ${ms(values.p99)}, max ${ms(values.max)}`;
  const rows: [string, string, string, boolean | null][] = [
    [`peak edit rate (${PEAK_CLIENTS} clients, closed loop)`, `${peak.toFixed(0)}/s`, "—", null],
    [
      `offered: ${OVERLOAD_FACTOR}× the peak for ${OVERLOAD_SECONDS} s, open loop`,
      `${overloadRate}/s: ${outcome.measured.toLocaleString("en")} edits`,
      "—",
      null,
    ],
    [
      "answers",
      `${outcome.accepted.fromSent.count} accepted (${(outcome.accepted.fromSent.count / OVERLOAD_SECONDS).toFixed(0)}/s), ${outcome.refused.fromSent.count} refused (${outcome.reasons}), ${outcome.others}; ${outcome.fresh} sent on a connection opened for it`,
      "—",
      null,
    ],
    [
      "accepted edits, from when sent",
      spread(outcome.accepted.fromSent),
      `every one ≤ ${ACCEPTED_WITHIN_MS} ms`,
      outcome.accepted.fromSent.max <= ACCEPTED_WITHIN_MS,
    ],
    [
      "accepted edits, from when due",
      spread(outcome.accepted.fromDue),
      `every one ≤ ${ACCEPTED_WITHIN_MS} ms`,
      outcome.accepted.fromDue.max <= ACCEPTED_WITHIN_MS,
    ],
    [
      "refused edits (503, 429), from when sent",
      spread(outcome.refused.fromSent),
      `every one ≤ ${REFUSED_WITHIN_MS} ms`,
      outcome.refused.fromSent.max <= REFUSED_WITHIN_MS,
    ],
    [
      "refused edits (503, 429), from when due",
      spread(outcome.refused.fromDue),
      `every one ≤ ${REFUSED_WITHIN_MS} ms`,
      outcome.refused.fromDue.max <= REFUSED_WITHIN_MS,
    ],
    [
      "the generator's own wait (from due to sent)",
      `${spread(outcome.lag)}; its event loop's delay p99 ${ms(generatorLoop.percentile(99) / 1e6)}, max ${ms(generatorLoop.max / 1e6)}`,
      "—",
      null,
    ],
    [
      `CPU seconds in the ${overloadWall.toFixed(0)} s of overload (${(2 * overloadWall).toFixed(0)} on 2 cores)`,
      Object.entries(cpuSeconds)
        .map(([name, seconds]) => `${name} ${seconds.toFixed(1)}`)
        .join(", "),
      "—",
      null,
    ],
    [
      "acknowledged edits in the database afterwards",
      audit === ""
        ? `all ${acknowledged.length.toLocaleString("en")} (warm-up included), versions without gaps`
        : (audit.split("\n")[0]?.slice(0, 200) ?? ""),
      "none lost",
      audit === "",
    ],
    [
      `edits at half the peak (${halfRate}/s, paced), alone`,
      `p50 ${ms(alone.p50)}, p99 ${ms(alone.p99)}; ${alone.failures} failed`,
      "—",
      null,
    ],
    [
      `edits at half the peak (${halfRate}/s, paced), beside a process spinning on a core`,
      `p50 ${ms(contended.p50)}, p99 ${ms(contended.p99)}; ${contended.failures} failed`,
      `p99 ≤ ${CONTENDED_P99_MS} ms`,
      contended.p99 <= CONTENDED_P99_MS && contended.failures === 0,
    ],
  ];
  const table = [
    "| measurement | measured | target | |",
    "|---|---|---|---|",
    ...rows.map(
      ([what, measured, target, ok]) =>
        `| ${what} | ${measured} | ${target} | ${ok === null ? "—" : ok ? "met" : "MISSED"} |`,
    ),
  ].join("\n");
  console.log(`\n${table}\n`);
  if (audit !== "") console.log(audit);
  if (process.argv.includes("--write")) writeReport(table);
  process.exitCode = rows.every((row) => row[3] !== false) ? 0 : 1;

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
  await handle.close();
  await platform.stop();
}

function stopHog(): void {
  if (hog?.pid !== undefined && hog.exitCode === null && hog.signalCode === null)
    process.kill(hog.pid, "SIGKILL");
}

function pidsOf(name: string): () => number[] {
  return () =>
    platform.processes.flatMap((p) => (p.name === name && p.child.pid !== undefined ? [p.child.pid] : []));
}

interface Latencies {
  count: number;
  p50: number;
  p99: number;
  max: number;
}

/** Of the values that are numbers (a request that never got a connection has no send time). */
function latencies(all: number[]): Latencies {
  const values = all.filter((value) => !Number.isNaN(value)).sort((a, b) => a - b);
  return {
    count: values.length,
    p50: percentile(values, 0.5),
    p99: percentile(values, 0.99),
    max: values[values.length - 1] ?? Number.NaN,
  };
}

function isRefusal(status: number): boolean {
  return status === 503 || status === 429;
}

/** Why the gateway or the writer refused: the first words of the 503's message say which. */
function reasonOf(sample: PacedSample): string {
  if (sample.status === 429) return "rate limited";
  const message = sample.body ?? "";
  if (message.includes("at capacity")) return "gateway at capacity";
  if (message.includes("The platform is behind")) return "gateway queueing";
  if (message.includes("The writer is behind")) return "writer queue";
  // A service's bus subscription answers so beyond its requests at once (512), as when none listens.
  if (message.includes("No service is answering")) return "writer at its bus limit";
  const error = /"error":"([^"]{0,60})/.exec(message)?.[1];
  return `other 503 (${error ?? message.slice(0, 60)}…)`;
}

/** The measured part of the overload: latencies of the accepted and refused edits, both ways. */
function summarise(samples: readonly PacedSample[]) {
  const measured = samples.filter((sample) => !sample.warmup);
  const of = (keep: (sample: PacedSample) => boolean) => {
    const kept = measured.filter(keep);
    return {
      fromSent: latencies(kept.map((sample) => sample.answered - sample.sent)),
      fromDue: latencies(kept.map((sample) => sample.answered - sample.due)),
    };
  };
  const counts = (list: string[]) => {
    const tally = new Map<string, number>();
    for (const item of list) tally.set(item, (tally.get(item) ?? 0) + 1);
    return [...tally].map(([what, count]) => `${what} ${count}`).join(", ");
  };
  // Neither accepted nor refused: counted over the warm-up too, since a lost answer matters whenever it happens.
  const others = samples.filter((sample) => sample.status !== 200 && !isRefusal(sample.status));
  return {
    measured: measured.length,
    accepted: of((sample) => sample.status === 200),
    refused: of((sample) => isRefusal(sample.status)),
    reasons: counts(measured.filter((sample) => isRefusal(sample.status)).map(reasonOf)) || "none",
    others:
      others.length === 0
        ? "no other answer"
        : `other answers, warm-up included: ${counts(others.map((sample) => (sample.status === 0 ? "no answer" : String(sample.status))))}`,
    lag: latencies(measured.map((sample) => sample.sent - sample.due)),
    fresh: measured.filter((sample) => sample.fresh).length,
  };
}

/** Second by second, to see where in the overload the time went (printed, not recorded). */
function printTimeline(samples: readonly PacedSample[]): void {
  const first = samples[0]?.due ?? 0;
  const seconds = new Map<number, PacedSample[]>();
  for (const sample of samples) {
    const second = Math.floor((sample.due - first) / 1000);
    const list = seconds.get(second);
    if (list) list.push(sample);
    else seconds.set(second, [sample]);
  }
  console.log(
    "\nsecond | accepted | refused | accepted p99/max from sent | refused p99/max from sent | generator wait p99 | new connections",
  );
  for (const [second, list] of seconds) {
    const accepted = latencies(list.filter((s) => s.status === 200).map((s) => s.answered - s.sent));
    const refused = latencies(list.filter((s) => isRefusal(s.status)).map((s) => s.answered - s.sent));
    const lag = latencies(list.map((s) => s.sent - s.due));
    console.log(
      `${String(second).padStart(6)} | ${String(accepted.count).padStart(8)} | ${String(refused.count).padStart(7)} | ${accepted.p99.toFixed(0).padStart(6)} / ${accepted.max.toFixed(0).padEnd(6)} | ${refused.p99.toFixed(0).padStart(6)} / ${refused.max.toFixed(0).padEnd(6)} | ${lag.p99.toFixed(0).padStart(18)} | ${list.filter((s) => s.fresh).length}`,
    );
  }
}

function writeReport(table: string): void {
  const settings = Object.entries({ ...gatewaySettings, ...writerSettings })
    .map(([name, value]) => `\`${name}=${value}\``)
    .join(", ");
  writeSection(
    "overload",
    `## Bounded waits under overload

Measured by \`npm run bench -- overload --write\` (bench/src/overload.ts) on ${new Date().toISOString().slice(0, 10)},
on one machine (${machine()}) running everything at once: PostgreSQL, NATS, the distributed platform with
one writer (${settings === "" ? "default settings" : settings}) and the load generators. ${DATASETS} datasets of ${ROWS} rows take edits spread over
their rows. The peak rate is \`wrk\`'s with ${PEAK_CLIENTS} connections in a closed loop for ${PEAK_SECONDS} s. The overload
is ${OVERLOAD_FACTOR} times that rate from an open-loop generator (bench/src/paced.ts) on up to ${CONNECTIONS} connections
(opened beforehand), for ${OVERLOAD_SECONDS} s after ${WARMUP_SECONDS} s at that rate unmeasured; each edit is timed
both from when it was due (what a client would see) and from when the generator let go of it, written on
an open connection or a new one begun for it (the platform's part: the difference is the generator's own
wait, for its event loop or a free connection). Accepted means answered
200; refused, 503 or 429. Every edit acknowledged with 200, the warm-up's included, is then looked up
in the database (\`@svc/testing/audit\`). The last two rows send edits at half the peak rate for
${CONTENDED_SECONDS} s after ${WARMUP_SECONDS} s unmeasured, alone and then beside \`node -e "for(;;){}"\` spinning on one
of the two cores, each after the database was vacuumed and checkpointed.

${table}`,
  );
}

function log(message: string): void {
  console.log(`[${new Date().toISOString().slice(11, 19)}] ${message}`);
}
