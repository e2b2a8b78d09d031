import { readFileSync } from "node:fs";
import { startPlatform } from "@svc/testing/platform";
import { percentile } from "./measure";
import { log, machine, verdictTable, writeSection } from "./report";

/**
 * Live changes on the distributed platform with two gateways: how long an edit takes to reach 100
 * open streams (50 on each gateway), counted from the edit's 200, and what 1,000 idle streams cost a
 * gateway's resident memory.
 */
const STREAMS = Number(process.env.BENCH_LIVE_STREAMS ?? 100);
const EDITS = Number(process.env.BENCH_LIVE_EDITS ?? 50);
const IDLE = Number(process.env.BENCH_LIVE_IDLE ?? 1_000);

// One key holds every stream of the benchmark: its cap is raised to hold them all.
const platform = await startPlatform({ gatewayEnv: { SVC_GATEWAY_STREAMS_PER_KEY: String(IDLE + STREAMS) } });
const second = await platform.startGateway().catch(async (error: unknown) => {
  await platform.stop();
  throw error;
});
const gateways = [platform.baseUrl, second];
const owner = { authorization: `Bearer ${platform.ownerKey}` };

async function api<T>(base: string, method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { ...owner, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/** Opens a stream (a connection of its own: fetch's pool opens one per request in flight) and calls `arrived(version, time)` for each event as its bytes come in. */
async function openStream(base: string, path: string, arrived: (version: number, at: number) => void) {
  const abort = new AbortController();
  const response = await fetch(`${base}${path}`, {
    headers: { ...owner, accept: "text/event-stream" },
    signal: abort.signal,
  });
  if (response.status !== 200) throw new Error(`stream: ${response.status} ${await response.text()}`);
  void (async () => {
    const decoder = new TextDecoder();
    try {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        const at = performance.now();
        for (const match of decoder.decode(chunk, { stream: true }).matchAll(/^id: (\d+)$/gm))
          arrived(Number(match[1]), at);
      }
    } catch {
      // Closed by the benchmark.
    }
  })();
  return () => abort.abort();
}

const rssMiB = (pid: number | undefined) =>
  Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) / 1024;
const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

try {
  const project = (await api<{ slug: string }>(platform.baseUrl, "POST", "/v1/projects", { name: "Live" }))
    .slug;
  const slug = (
    await api<{ slug: string }>(platform.baseUrl, "POST", `/v1/projects/${project}/datasets`, {
      name: "Watched",
    })
  ).slug;
  const base = `/v1/projects/${project}/datasets/${slug}`;
  await api(platform.baseUrl, "POST", `${base}/rows`, { rows: [{ id: "r0", input: "x" }] });

  // Fan-out: STREAMS streams, half on each gateway; EDITS edits one after another, through either.
  log(`opening ${STREAMS} streams over two gateways…`);
  const arrivals = new Map<number, number[]>();
  const closers = await Promise.all(
    Array.from({ length: STREAMS }, (_, i) =>
      openStream(gateways[i % 2] as string, `${base}/events`, (version, at) => {
        const list = arrivals.get(version) ?? [];
        list.push(at);
        arrivals.set(version, list);
      }),
    ),
  );
  await settle(1_000);
  log(`${EDITS} edits…`);
  const answered = new Map<number, number>();
  for (let i = 0; i < EDITS; i++) {
    const edit = await api<{ version: number }>(gateways[i % 2] as string, "PATCH", `${base}/rows/r0`, {
      output: { i },
    });
    answered.set(edit.version, performance.now());
    await settle(100);
  }
  await settle(2_000);
  for (const close of closers) close();
  const latencies: number[] = [];
  let missing = 0;
  for (const [version, at] of answered) {
    const got = arrivals.get(version) ?? [];
    missing += STREAMS - got.length;
    for (const time of got) latencies.push(Math.max(0, time - at));
  }
  latencies.sort((a, b) => a - b);
  const p50 = percentile(latencies, 0.5);
  const p99 = percentile(latencies, 0.99);

  // Idle streams: the first gateway's resident memory before and after IDLE streams are open.
  await settle(1_000);
  const gateway = platform.processes.find((proc) => proc.name === "gateway");
  const before = rssMiB(gateway?.child.pid);
  log(`opening ${IDLE} idle streams on one gateway…`);
  const idle: (() => void)[] = [];
  for (let i = 0; i < IDLE; i += 100) {
    idle.push(
      ...(await Promise.all(
        Array.from({ length: Math.min(100, IDLE - i) }, () =>
          openStream(platform.baseUrl, `${base}/events`, () => undefined),
        ),
      )),
    );
  }
  await settle(3_000);
  const after = rssMiB(gateway?.child.pid);
  for (const close of idle) close();

  const table = verdictTable(
    ["measurement", "result", "target"],
    [
      [
        `an edit reaches ${STREAMS} streams on two gateways, after its 200 (${EDITS} edits, ${latencies.length} deliveries, ${missing} missing)`,
        `p50 ${p50.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms`,
        "p99 ≤ 250 ms",
        missing === 0 && p99 <= 250,
      ],
      [
        `${IDLE} idle streams on one gateway: resident memory added`,
        `${(after - before).toFixed(1)} MiB (${before.toFixed(0)} → ${after.toFixed(0)} MiB)`,
        "≤ 50 MB",
        (after - before) * 1.048576 <= 50,
      ],
    ],
  );
  const text = [
    "## Live changes: fan-out and idle streams",
    "",
    `Measured by \`npm run bench -- live\` on ${machine()}: the distributed platform with two gateways (PostgreSQL, NATS), every process on this machine, the clients in the benchmark's process. A stream is one HTTP connection; the edits go through either gateway in turn, 100 ms apart.`,
    "",
    table,
  ].join("\n");
  console.log(text);
  if (process.argv.includes("--write")) writeSection("live", text);
} finally {
  await platform.stop();
}
