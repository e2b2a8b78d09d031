import { NatsCluster } from "@svc/testing/nats-cluster";
import { GENEROUS_RATE_LIMITS } from "@svc/testing/platform";
import { PostgresPair } from "@svc/testing/postgres-pair";
import { countCpu } from "./cpu-time";
import { type LoadPlatform, startLoadPlatform } from "./load-platform";
import { median } from "./owner-api";
import { type PacedOptions, paced, pacedRequests } from "./paced";
import { allMet, log, machine, type VerdictRow, verdictTable, writeSection } from "./report";

/**
 * svc past one machine, each shape beside the one it replaces, in one run: edits on one NATS server
 * and on a cluster of three; reads on the primary and on a hot standby; and what losing a NATS node
 * or the PostgreSQL primary costs a steady load. `--write` records the table in docs/performance.md.
 */
const CLIENTS = 16;
const DATASETS = 16;
const ROWS = 100;
const PEAK_SECONDS = Number(process.env.SVC_BENCH_PEAK_SECONDS ?? 8);
const PACED_SECONDS = Number(process.env.SVC_BENCH_PACED_SECONDS ?? 15);
const WARMUP_SECONDS = 3;
const ROUNDS = Number(process.env.SVC_BENCH_ROUNDS ?? 2);
const write = process.argv.includes("--write");

interface Request {
  method: "GET" | "PATCH";
  path: string;
  body?: string;
}

const editOf = (n: number): Request => ({
  method: "PATCH",
  path: `/v1/projects/bench/datasets/edit-${(n % DATASETS) + 1}/rows/r${(n * 7919) % ROWS}`,
  body: JSON.stringify({ expectedOutput: { answer: n } }),
});
const readOf = (n: number): Request => ({
  method: "GET",
  path: `/v1/projects/bench/datasets/read-1/rows?limit=50&offset=${(n * 50) % 1000}`,
});

/** Each of `CLIENTS` workers sends its next request once the last is answered, for `seconds`: answers/s. */
async function closedLoop(load: LoadPlatform, seconds: number, request: (n: number) => Request) {
  const { baseUrl, ownerKey } = load.platform;
  const headers = { authorization: `Bearer ${ownerKey}`, "content-type": "application/json" };
  const until = performance.now() + seconds * 1000;
  let n = 0;
  let answered = 0;
  let failed = 0;
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (performance.now() < until) {
        const { method, path, body } = request(n++);
        const init = body === undefined ? { method, headers } : { method, headers, body };
        const response = await fetch(`${baseUrl}${path}`, init).catch(() => undefined);
        await response?.arrayBuffer();
        if (response?.ok) answered++;
        else failed++;
      }
    }),
  );
  return { perSecond: answered / seconds, failed };
}

const pacedEdits = (load: LoadPlatform, rate: number, durationSeconds: number): PacedOptions => ({
  url: load.platform.baseUrl,
  apiKey: load.platform.ownerKey,
  rate,
  warmupSeconds: WARMUP_SECONDS,
  durationSeconds,
  connections: 64,
  method: "PATCH",
  next: (n) => {
    const { path, body } = editOf(n);
    return body === undefined ? { path } : { path, body };
  },
});

/**
 * A paced edit load during which `lose` takes a part away, `lostAfterSeconds` into the measured part,
 * and says when the part was gone (a kill that waits for its process to end): the time from then to the
 * first edit due after it that was acknowledged, and how many edits were refused (or not answered)
 * meanwhile.
 */
async function lossUnderLoad(load: LoadPlatform, rate: number, lose: () => Promise<number>) {
  const lostAfterSeconds = 6;
  let lostAt = Number.NaN;
  const timer = setTimeout(
    () => {
      void lose().then((at) => {
        lostAt = at;
      });
    },
    (WARMUP_SECONDS + lostAfterSeconds) * 1000,
  );
  const { samples } = await pacedRequests(pacedEdits(load, rate, lostAfterSeconds + 14));
  clearTimeout(timer);
  const after = samples.filter((s) => s.due >= lostAt).sort((a, b) => a.due - b.due);
  const firstAck = after.find((s) => s.status === 200);
  return {
    firstAckMs: firstAck ? firstAck.answered - lostAt : Number.POSITIVE_INFINITY,
    refused: after.filter((s) => s.status !== 200 && (!firstAck || s.due <= firstAck.answered)).length,
    refusedInAll: samples.filter((s) => s.status !== 200).length,
  };
}

const fixed = (value: number, digits = 0) => value.toFixed(digits);
const rows: VerdictRow[] = [];

// 1. One NATS server (the machine's) against a cluster of three on loopback ports.
log("starting a platform on one NATS server and one on a cluster of three…");
const cluster = await NatsCluster.start(3);
let single: LoadPlatform | undefined;
let clustered: LoadPlatform | undefined;
try {
  // Ten platform processes and three NATS servers starting on a shared machine: generous readiness.
  single = await startLoadPlatform({
    writers: 1,
    readyTimeoutMs: 90_000,
    gatewayEnv: { LOG_LEVEL: "warn", ...GENEROUS_RATE_LIMITS },
  });
  clustered = await startLoadPlatform({
    writers: 1,
    readyTimeoutMs: 90_000,
    natsUrl: cluster.natsUrl,
    env: { SVC_JETSTREAM_REPLICAS: "3" },
    gatewayEnv: { LOG_LEVEL: "warn", ...GENEROUS_RATE_LIMITS },
  });
  for (const load of [single, clustered]) await load.seed("e-", "edit-", DATASETS, ROWS);
  const peaks = { single: [] as number[], cluster: [] as number[] };
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, load] of [
      ["single", single],
      ["cluster", clustered],
    ] as const) {
      await closedLoop(load, 2, editOf);
      peaks[name].push((await closedLoop(load, PEAK_SECONDS, editOf)).perSecond);
    }
  }
  const peakSingle = median(peaks.single);
  const peakCluster = median(peaks.cluster);
  log(`peak edits/s: one server ${fixed(peakSingle)}, cluster ${fixed(peakCluster)}`);
  // Both at the same rate, half the lower peak: latency at equal work.
  const rate = Math.max(10, Math.round(Math.min(peakSingle, peakCluster) / 2));
  const p99 = { single: [] as number[], cluster: [] as number[] };
  for (let round = 0; round < ROUNDS; round++) {
    p99.single.push((await paced(pacedEdits(single, rate, PACED_SECONDS))).p99);
    p99.cluster.push((await paced(pacedEdits(clustered, rate, PACED_SECONDS))).p99);
  }
  rows.push(
    [
      "edits/s at the peak (16 clients)",
      fixed(peakSingle),
      fixed(peakCluster),
      fixed(peakCluster / peakSingle, 2),
      null,
    ],
    [
      `edit p99 at ${rate}/s (half the lower peak), ms`,
      fixed(median(p99.single)),
      fixed(median(p99.cluster)),
      fixed(median(p99.cluster) / median(p99.single), 2),
      null,
    ],
  );
  log("killing the dataset-writer's NATS node under that load…");
  const victim = (await cluster.nodeOf("dataset-writer")) ?? cluster.nodes[0];
  if (!victim) throw new Error("the cluster has no node");
  const natsLoss = await lossUnderLoad(clustered, rate, async () => {
    await cluster.kill(victim);
    return performance.now();
  });
  await cluster.restart(victim);
  rows.push([
    "a NATS node killed: first acknowledged edit after it, ms (refused meanwhile)",
    "—",
    `${fixed(natsLoss.firstAckMs)} (${natsLoss.refused})`,
    "—",
    natsLoss.firstAckMs < 2_000,
  ]);
} finally {
  await single?.stop();
  await clustered?.stop();
  await cluster.stop();
}

// 2. Reads on the primary against reads on a hot standby, then the primary lost.
log("starting a PostgreSQL primary with a standby, and a platform reading from each…");
const pair = await PostgresPair.start();
try {
  let onPrimary: LoadPlatform | undefined;
  let onStandby: LoadPlatform | undefined;
  try {
    onPrimary = await startLoadPlatform({ databaseServerUrl: pair.primaryUrl, readyTimeoutMs: 90_000 });
    onStandby = await startLoadPlatform({
      databaseServerUrl: pair.primaryUrl,
      readyTimeoutMs: 90_000,
      readerEnv: (url) => ({ DATABASE_READ_URL: pair.onStandby(url, "bench-standby") }),
    });
    for (const load of [onPrimary, onStandby]) await load.seed("r-", "read-", 1, 1000);
    const reads = { primary: [] as number[], standby: [] as number[] };
    const primaryCpu = { primary: [] as number[], standby: [] as number[] };
    for (let round = 0; round < ROUNDS; round++) {
      for (const [name, load] of [
        ["primary", onPrimary],
        ["standby", onStandby],
      ] as const) {
        await closedLoop(load, 2, readOf);
        const cpu = countCpu({ primary: () => pair.serverPids("primary") });
        const { perSecond } = await closedLoop(load, PEAK_SECONDS, readOf);
        reads[name].push(perSecond);
        // CPU seconds of the primary server per 1,000 reads.
        primaryCpu[name].push(((cpu().primary ?? 0) / (perSecond * PEAK_SECONDS)) * 1000);
      }
    }
    rows.push(
      [
        "row pages read/s (16 clients)",
        fixed(median(reads.primary)),
        fixed(median(reads.standby)),
        fixed(median(reads.standby) / median(reads.primary), 2),
        null,
      ],
      [
        "primary's CPU seconds per 1,000 reads",
        fixed(median(primaryCpu.primary), 2),
        fixed(median(primaryCpu.standby), 2),
        fixed(median(primaryCpu.standby) / median(primaryCpu.primary), 2),
        median(primaryCpu.standby) < median(primaryCpu.primary),
      ],
    );
  } finally {
    await onPrimary?.stop();
    await onStandby?.stop();
  }

  log("losing the primary under a steady edit load, the synchronous standby promoted…");
  await pair.replicateSynchronously();
  const failover = await startLoadPlatform({
    databaseServerUrl: pair.primaryUrl,
    serviceDatabaseUrl: (url) => pair.onBoth(url, "read-write"),
    readyTimeoutMs: 90_000,
  });
  try {
    await failover.seed("e-", "edit-", DATASETS, ROWS);
    const pgLoss = await lossUnderLoad(failover, 100, async () => {
      await pair.killPrimary();
      const gone = performance.now();
      await pair.promoteStandby();
      return gone;
    });
    rows.push([
      "the primary killed at 100 edits/s: first acknowledged edit after it, ms (refused meanwhile)",
      "—",
      `${fixed(pgLoss.firstAckMs)} (${pgLoss.refused})`,
      "—",
      pgLoss.firstAckMs < 10_000,
    ]);
  } finally {
    // Its database was on the primary that is gone: the processes stop, the drop cannot be done.
    await failover.stop().catch(() => undefined);
  }
} finally {
  await pair.stop();
}

const table = verdictTable(["measurement", "one server / primary", "cluster / standby", "ratio"], rows);
const text = [
  "### Past one machine",
  "",
  `${machine()}; ${ROUNDS} alternating rounds, medians. NATS: one server against a cluster of three, all on`,
  "this machine. PostgreSQL: reads with and without a hot standby; failures under a steady paced load.",
  "",
  table,
].join("\n");
console.log(`\n${text}\n`);
if (write) writeSection("cluster", text);
process.exit(allMet(rows) ? 0 : 1);
