import { openDatabase } from "@svc/db";
import { type Platform, startPlatform } from "@svc/testing/platform";
import { sql } from "kysely";
import type { Browser } from "playwright-core";
import { launchChromium } from "../../e2e/src/web/harness";
import { byCommand, countCpu } from "./cpu-time";
import { measureInTurns, type Timing } from "./measure";
import {
  agentRun,
  COPY_COLUMNS,
  copyLinesOf,
  exportBody,
  longRun,
  newTraceId,
  type OtlpSpan,
  otlpSpans,
  protobufOf,
} from "./otlp-spans";
import { median, ownerApi, secondsSince } from "./owner-api";
import { allMet, log, machine, type VerdictRow, verdictTable, writeSection } from "./report";
import { seedTraces } from "./trace-seed";

/**
 * Monitoring at scale, on the distributed platform (PostgreSQL): spans per second through
 * `POST /v1/traces` (OTLP/HTTP protobuf, batches of 512) beside COPY of the same spans into a table
 * shaped like `spans`, batch by batch in turns; then, in a project of 1,000,000 traces (5,000,000
 * spans, loaded with SQL), the dashboard's 30-day metrics, a filtered first page of the traces list
 * beside the same on a project of 1,000 traces, and a 1,000-span trace's page in Chromium until a
 * span clicked shows its details.
 * Usage: `npm run bench -- monitoring [--traces=N] [--batches=N] [--write]` (or BENCH_MONITORING_TRACES,
 * BENCH_MONITORING_BATCHES): fewer traces for a quick check.
 */
const option = (name: string, env: string, fallback: number): number => {
  const value =
    process.argv.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3) ?? process.env[env];
  const number = value === undefined ? fallback : Number(value);
  if (!Number.isSafeInteger(number) || number < 1) throw new Error(`--${name} must be a positive integer`);
  return number;
};
const TRACES = option("traces", "BENCH_MONITORING_TRACES", 1_000_000);
const BATCHES = option("batches", "BENCH_MONITORING_BATCHES", 100);
const BATCH_SPANS = 512;
const SMALL_TRACES = 1_000;
const LONG_TRACE_SPANS = 1_000;
const DAYS = 30;
const DAY_MS = 86_400_000;
const SAMPLES = 20;
/** The traces list's page in the web application. */
const WEB_PAGE = 100;
const VISITS = 7;

const platform = await startPlatform();
const handle = await openDatabase({ url: platform.databaseUrl, poolSize: 2 });
const db = handle.db;
const api = ownerApi(platform);
let browser: Browser | undefined;

try {
  const project = async (name: string) => {
    const { slug } = await api<{ slug: string }>("POST", "/v1/projects", { name });
    const { id } = await db
      .selectFrom("projects")
      .select("id")
      .where("slug", "=", slug)
      .executeTakeFirstOrThrow();
    return { slug, id };
  };
  const ingested = await project("Ingested");
  const big = await project("Monitoring");
  const small = await project("Monitoring small");
  const ingest = (slug: string, body: Uint8Array) =>
    fetch(`${platform.baseUrl}/v1/traces`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${platform.ownerKey}`,
        "x-svc-project": slug,
        "content-type": "application/x-protobuf",
      },
      body,
    }).then(async (answer) => {
      if (!answer.ok) throw new Error(`POST /v1/traces: ${answer.status} ${await answer.text()}`);
      await answer.arrayBuffer();
    });

  // 1. Ingest against COPY, batch by batch in turns, both into an empty table with the same indexes.
  log(`ingesting ${(BATCHES * BATCH_SPANS).toLocaleString("en")} spans and copying as many, in turns…`);
  await sql`CREATE TABLE bench_spans_copy (LIKE spans INCLUDING ALL)`.execute(db);
  const batches = ingestBatches(1 + BATCHES, Date.now() - 3_600_000).map((body) => ({
    protobuf: protobufOf(body),
    copy: copyLinesOf(body, ingested.id),
  }));
  const copyFrom = handle.copyFrom;
  if (!copyFrom) throw new Error("the benchmark needs PostgreSQL's COPY");
  const copy = (lines: string) =>
    copyFrom(`COPY bench_spans_copy (${COPY_COLUMNS.join(", ")}) FROM STDIN`, once(lines));
  const times = { ingest: 0, copy: 0 };
  // The CPU each side costs each process, read around each batch (outside its timing).
  const cpuGroups = {
    gateway: pidsOf(platform, "gateway"),
    "trace-ingest": pidsOf(platform, "trace-ingest"),
    PostgreSQL: byCommand("postgres", ` ${new URL(platform.databaseUrl).pathname.slice(1)} `),
  };
  const cpu = { ingest: new Map<string, number>(), copy: new Map<string, number>() };
  const timed = async (side: "ingest" | "copy", index: number, run: () => Promise<unknown>) => {
    const used = countCpu(cpuGroups);
    const started = process.hrtime.bigint();
    await run();
    const seconds = secondsSince(started);
    // The first batch of each warms the connections and the processes' code; it is not counted.
    if (index === 0) return;
    times[side] += seconds;
    for (const [name, cpuSeconds] of Object.entries(used())) {
      if (name in cpuGroups) cpu[side].set(name, (cpu[side].get(name) ?? 0) + cpuSeconds);
    }
  };
  for (const [index, batch] of batches.entries()) {
    await timed("ingest", index, () => ingest(ingested.slug, batch.protobuf));
    await timed("copy", index, () => copy(batch.copy));
  }
  // The summaries and metrics follow the spans (decision 0051): what was still to fold when the last
  // batch was answered, and how long the next read of the project took, folding it first.
  const { rows: waiting } = await sql<{ traces: string }>`
    SELECT count(*)::text AS traces FROM trace_folds WHERE project_id = ${ingested.id}`.execute(db);
  const foldStarted = process.hrtime.bigint();
  const { total: ingestedTraces } = await api<{ total: number }>(
    "POST",
    `/v1/projects/${ingested.slug}/traces/list`,
    { limit: 1 },
  );
  const firstListMs = 1000 * secondsSince(foldStarted);
  const perBatch = (side: "ingest" | "copy") =>
    [...cpu[side].entries()]
      .filter(([, seconds]) => seconds > 0.0005 * BATCHES)
      .map(([name, seconds]) => `${name} ${((1000 * seconds) / BATCHES).toFixed(0)} ms`)
      .join(", ");
  // Both sides wrote the same rows: every span once, each column alike (but when it was received).
  const columns = (alias: string) => sql.join(COPY_COLUMNS.map((column) => sql.ref(`${alias}.${column}`)));
  const { rows: written } = await sql<{ stored: string; alike: string }>`
    SELECT (SELECT count(*) FROM spans WHERE project_id = ${ingested.id})::text AS stored,
           (SELECT count(*) FROM spans AS s JOIN bench_spans_copy AS c USING (project_id, trace_id, span_id)
            WHERE s.project_id = ${ingested.id} AND ROW(${columns("s")}) IS NOT DISTINCT FROM ROW(${columns("c")}))::text AS alike`.execute(
    db,
  );
  const { stored, alike } = written[0] ?? { stored: "0", alike: "0" };
  if (Number(stored) !== batches.length * BATCH_SPANS || alike !== stored) {
    throw new Error(`ingested ${stored} spans, copied ${alike} alike, of ${batches.length * BATCH_SPANS}`);
  }
  const ingestRate = (BATCHES * BATCH_SPANS) / times.ingest;
  const copyRate = (BATCHES * BATCH_SPANS) / times.copy;
  await sql`DROP TABLE bench_spans_copy`.execute(db);

  // 2. A million traces, loaded with SQL; a thousand in the small project; one of 1,000 spans ingested.
  const endMs = Date.now();
  log(`loading ${TRACES.toLocaleString("en")} traces (${(5 * TRACES).toLocaleString("en")} spans)…`);
  const seedStarted = process.hrtime.bigint();
  // Two connections, each with the memory a bulk load is given to sort, aggregate and build indexes in.
  await db.connection().execute((first) =>
    db.connection().execute(async (second) => {
      for (const connection of [first, second]) {
        await sql`SET maintenance_work_mem = '512MB'`.execute(connection);
        await sql`SET work_mem = '256MB'`.execute(connection);
        // Refilling the metrics groups millions of rows, which the planner would sort: it guesses a
        // hundred models and tags a trace. In memory, hashing them takes half the time.
        await sql`SET enable_sort = off`.execute(connection);
      }
      const connections = [first, second] as const;
      const seed = { endMs, days: DAYS };
      await seedTraces(connections, {
        ...seed,
        projectId: big.id,
        prefix: "big",
        traces: TRACES,
        rebuildIndexes: true,
      });
      await seedTraces(connections, {
        ...seed,
        projectId: small.id,
        prefix: "small",
        traces: SMALL_TRACES,
        rebuildIndexes: false,
      });
    }),
  );
  const seedSeconds = secondsSince(seedStarted);
  const longSpans = longRun(LONG_TRACE_SPANS, endMs - 600_000);
  const longTraceId = newTraceId();
  for (let from = 0; from < longSpans.length; from += BATCH_SPANS) {
    const part = longSpans.slice(from, from + BATCH_SPANS);
    await ingest(big.slug, protobufOf(exportBody(otlpSpans(longTraceId, part))));
  }

  // 3. The dashboard's two requests for the last 30 days (all traces, and by model), as it sends them.
  log("reading the 30-day metrics…");
  const range = `from=${new Date(endMs - DAYS * DAY_MS).toISOString()}&to=${new Date(endMs).toISOString()}&bucket=day`;
  const metrics = (groupBy: string) => () =>
    api<{ series: { traces: number; group: string | null }[] }>(
      "GET",
      `/v1/projects/${big.slug}/traces/metrics?${range}${groupBy}`,
    );
  const counted = (await metrics("")()).series.reduce((total, point) => total + point.traces, 0);
  if (counted !== TRACES + 1) throw new Error(`the metrics count ${counted} traces of ${TRACES + 1}`);
  const [allMetrics, byModel] = (await measureInTurns([metrics(""), metrics("&groupBy=model")], {
    warmup: 3,
    samples: SAMPLES,
  })) as [Timing, Timing];

  // 4. The traces list filtered by model and errors, first page, on both projects in turns. The
  // small project holds some twenty such traces: the pages compared are as long as it can fill, so
  // that they differ in the traces behind them only; the web's page of 100 is measured too.
  log("reading filtered first pages…");
  const filtered = (slug: string, limit: number) => () =>
    api<{ items: unknown[]; total: number }>("POST", `/v1/projects/${slug}/traces/list`, {
      limit,
      filters: [
        { field: "models", op: "contains", value: "gpt-4o" },
        { field: "errorCount", op: "gt", value: 0 },
      ],
    });
  const { total: bigTotal } = await filtered(big.slug, 1)();
  const { total: smallTotal } = await filtered(small.slug, 1)();
  const pageLength = Math.min(WEB_PAGE, smallTotal);
  for (const [slug, total] of [
    [big.slug, bigTotal],
    [small.slug, smallTotal],
  ] as const) {
    const { items } = await filtered(slug, WEB_PAGE)();
    if (items.length !== Math.min(WEB_PAGE, total)) {
      throw new Error(`the filtered page of ${slug} holds ${items.length} traces of ${total}`);
    }
  }
  const [bigList, smallList, bigWebPage, smallWebPage] = (await measureInTurns(
    [
      filtered(big.slug, pageLength),
      filtered(small.slug, pageLength),
      filtered(big.slug, WEB_PAGE),
      filtered(small.slug, WEB_PAGE),
    ],
    { warmup: 3, samples: SAMPLES },
  )) as [Timing, Timing, Timing, Timing];

  // 5. The 1,000-span trace's page, from navigation to a clicked span's details shown.
  log("opening the 1,000-span trace in Chromium…");
  browser = await launchChromium();
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
  await page.goto(`${platform.baseUrl}/sign-in`);
  await page.getByLabel("API key").fill(platform.ownerKey);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL(/\/projects$/);
  const visit = async () => {
    await page.goto(`${platform.baseUrl}/projects/${big.slug}/traces/${longTraceId}`, {
      waitUntil: "commit",
    });
    // In the page, by its own clock from the navigation's start: the tree drawn, its tenth line
    // clicked, and that span's details shown beside it.
    return page.evaluate<number>(`(async () => {
      const until = async (check) => {
        for (let value = check(); ; value = check()) {
          if (value) return value;
          await new Promise((resolve) => setTimeout(resolve, 2));
        }
      };
      const line = await until(() => document.querySelectorAll('[role="tree"] [role="treeitem"]')[9]);
      const spanId = line.id.slice("span-".length);
      line.click();
      await until(() => document.querySelector("aside.span-detail code")?.textContent === spanId);
      return performance.now();
    })()`);
  };
  // The first visit loads the application's files, as a person's first visit did before.
  await visit();
  const visits: number[] = [];
  for (let i = 0; i < VISITS; i++) visits.push(await visit());
  const interactive = median(visits);

  const ratio = bigList.median / smallList.median;
  const rows: VerdictRow[] = [
    [
      `ingest, spans/s: \`POST /v1/traces\` (protobuf, ${BATCH_SPANS} spans a request) against COPY of the same spans`,
      `${fmt(ingestRate)} against ${fmt(copyRate)} (${(ingestRate / copyRate).toFixed(2)}×)`,
      "≥ 0.5×",
      ingestRate / copyRate >= 0.5,
    ],
    [
      `30-day metrics by day, all traces (${TRACES.toLocaleString("en")} traces), median`,
      `${allMetrics.median.toFixed(0)} ms`,
      "≤ 500 ms",
      allMetrics.median <= 500,
    ],
    [
      "30-day metrics by day, by model, median",
      `${byModel.median.toFixed(0)} ms`,
      "≤ 500 ms",
      byModel.median <= 500,
    ],
    [
      `traces with model gpt-4o and errors, first page of ${pageLength}: ${TRACES.toLocaleString("en")} traces against ${SMALL_TRACES.toLocaleString("en")}, median`,
      `${bigList.median.toFixed(0)} ms against ${smallList.median.toFixed(0)} ms (${ratio.toFixed(2)}×)`,
      "≤ 1.2×",
      ratio <= 1.2,
    ],
    [
      `a ${LONG_TRACE_SPANS.toLocaleString("en")}-span trace's page: navigation to a clicked span's details, median`,
      `${interactive.toFixed(0)} ms`,
      "≤ 1,500 ms",
      interactive <= 1_500,
    ],
  ];
  const table = verdictTable(["Measurement", "Result", "Target"], rows);
  const notes = [
    `ingest: ${BATCHES} batches of ${BATCH_SPANS} spans (agent runs of 5 spans with model calls, tokens and messages) each way, after one uncounted batch each; ${times.ingest.toFixed(1)} s through the gateway, ${times.copy.toFixed(1)} s of COPY; CPU a batch: ingest ${perBatch("ingest")}; COPY ${perBatch("copy")}`,
    `summaries and metrics: ${Number(waiting[0]?.traces ?? 0).toLocaleString("en")} of the ${ingestedTraces.toLocaleString("en")} traces still to fold when the last batch was answered; the next list of the project, which folds them first, answered in ${firstListMs.toFixed(0)} ms`,
    `loading ${TRACES.toLocaleString("en")} traces and ${(5 * TRACES).toLocaleString("en")} spans with SQL, building their indexes and the trace metrics: ${seedSeconds.toFixed(0)} s`,
    `matching traces: ${bigTotal.toLocaleString("en")} of ${TRACES.toLocaleString("en")}, ${smallTotal.toLocaleString("en")} of ${SMALL_TRACES.toLocaleString("en")}; p95 ${bigList.p95.toFixed(0)} and ${smallList.p95.toFixed(0)} ms; the web's first page of ${WEB_PAGE} (${Math.min(WEB_PAGE, bigTotal)} traces against ${Math.min(WEB_PAGE, smallTotal)}): median ${bigWebPage.median.toFixed(0)} against ${smallWebPage.median.toFixed(0)} ms`,
    `metrics p95: all ${allMetrics.p95.toFixed(0)} ms, by model ${byModel.p95.toFixed(0)} ms`,
    `trace page visits: ${visits.map((ms) => ms.toFixed(0)).join(", ")} ms`,
  ];
  console.log(`\n${table}\n\n- ${notes.join("\n- ")}`);
  if (process.argv.includes("--write")) {
    writeSection(
      "monitoring",
      `## Monitoring: ingest, metrics, filtered lists, a long trace

Measured by \`npm run bench -- monitoring --write\` (bench/src/monitoring.ts) on ${new Date().toISOString().slice(0, 10)}, on
${machine()}, the distributed platform on PostgreSQL, everything on the one machine.

- Ingest: each batch of ${BATCH_SPANS} spans goes as OTLP/HTTP protobuf to \`POST /v1/traces\` through the
  gateway, then the same spans (the rows trace-ingest stores for them, made beforehand) are written
  with \`COPY … FROM STDIN\` into an empty table made by \`CREATE TABLE … (LIKE spans INCLUDING ALL)\`,
  batch by batch in turns.
- Then ${TRACES.toLocaleString("en")} traces of 5 spans over the last ${DAYS} days (four models, 5% with a failed tool
  call, ten traces a session) are loaded with SQL into one project and ${SMALL_TRACES.toLocaleString("en")} into another,
  and a trace of ${LONG_TRACE_SPANS.toLocaleString("en")} spans is ingested into the first.
- Metrics: the two requests the dashboard sends for "Last 30 days". Filtered list: the web page's
  request for model gpt-4o with errors, its first page as long as the small project fills, so that
  the two pages differ in the traces behind them only. Each the median of ${SAMPLES} in turns, through
  the gateway.
- Trace page: headless Chromium, signed in; by the page's own clock from the navigation's start to
  the details of its tenth span shown after a click; the median of ${VISITS} visits after a first one.

${table}

- ${notes.join("\n- ")}`,
    );
  }
  process.exitCode = allMet(rows) ? 0 : 1;
} finally {
  await browser?.close();
  await sql`DROP TABLE IF EXISTS bench_spans_copy`.execute(db);
  await sql`DROP TABLE IF EXISTS bench_trace_choices`.execute(db);
  await handle.close();
  await platform.stop();
}

/** `count` export requests of BATCH_SPANS spans each, agent runs one after another from `startMs`. */
function ingestBatches(count: number, startMs: number) {
  const spans: OtlpSpan[] = [];
  for (let n = 0; spans.length < count * BATCH_SPANS; n++) {
    spans.push(...otlpSpans(newTraceId(), agentRun(n, startMs + n * 1_000)));
  }
  return Array.from({ length: count }, (_, i) =>
    exportBody(spans.slice(i * BATCH_SPANS, (i + 1) * BATCH_SPANS)),
  );
}

/** The process ids of a platform's processes of one name, for `countCpu`. */
function pidsOf(platform: Platform, name: string): () => number[] {
  return () =>
    platform.processes.flatMap((proc) => (proc.name === name && proc.child.pid ? [proc.child.pid] : []));
}

async function* once(text: string): AsyncIterable<string> {
  yield text;
}

function fmt(rate: number): string {
  return Math.round(rate).toLocaleString("en");
}
