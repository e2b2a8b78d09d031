import { openDatabase } from "@svc/db";
import { startPlatform } from "@svc/testing/platform";
import { sql } from "kysely";
import { Client } from "../../sdks/typescript/src/index";
import { measureInTurns, printTable, type Row, type Timing } from "./measure";
import { median, ownerApi, secondsSince } from "./owner-api";
import { log, machine, writeSection } from "./report";
import { seedDatasets } from "./seed";

/**
 * Experiments on the distributed platform, each beside a baseline measured in the same run:
 * recording 100,000 results in batches of 1,000 against inserting as many rows into a dataset in
 * batches of 1,000; the first page of a compare of two 100,000-row experiments against that of two
 * 100-row ones; an experiment of 1,000,000 results read with its summary; and an incremental run
 * after 50 edits of a 100,000-row dataset, through the TypeScript SDK's runner.
 */
const ROWS = Number(process.env.BENCH_EXPERIMENT_ROWS ?? 100_000);
const SUMMARY_ROWS = Number(process.env.BENCH_SUMMARY_ROWS ?? 1_000_000);
const BATCH = 1_000;

const platform = await startPlatform({ writers: 1 });
const handle = await openDatabase({ url: platform.databaseUrl, poolSize: 2 });
const api = ownerApi(platform);

try {
  const project = (await api<{ slug: string }>("POST", "/v1/projects", { name: "Experiments" })).slug;
  const { id: projectId, organization_id: organizationId } = await handle.db
    .selectFrom("projects")
    .select(["id", "organization_id"])
    .where("slug", "=", project)
    .executeTakeFirstOrThrow();
  const seed = async (prefix: string, rows: number) => {
    await seedDatasets(handle.db, {
      organizationId,
      projectId,
      idPrefix: prefix,
      slugPrefix: prefix,
      count: 1,
      rows,
    });
    await sql`ANALYZE row_revisions`.execute(handle.db);
    return `${prefix}1`;
  };
  const start = (dataset: string, name: string, evaluators: unknown[] = [], baseExperimentId?: string) =>
    api<{ id: string }>("POST", `/v1/projects/${project}/datasets/${dataset}/experiments`, {
      name,
      evaluators,
      ...(baseExperimentId === undefined ? {} : { baseExperimentId }),
    }).then((experiment) => experiment.id);
  const exact = [{ name: "exact", kind: "exact_match" as const }];

  log(`seeding a ${ROWS.toLocaleString("en")}-row dataset…`);
  const big = await seed("expbig", ROWS);

  // Recording results against inserting rows: batch by batch in turns, each side ROWS in all.
  log("recording results and inserting rows in turns…");
  const recorded = await start(big, "recorded", exact);
  const inserted = (
    await api<{ slug: string }>("POST", `/v1/projects/${project}/datasets`, { name: "Inserted" })
  ).slug;
  const outputOf = (i: number) => (i % 10 === 0 ? `wrong ${i}` : `answer ${i}`);
  const times = { results: 0, rows: 0 };
  for (let from = 0; from < ROWS; from += BATCH) {
    const ids = Array.from({ length: Math.min(BATCH, ROWS - from) }, (_, i) => from + i);
    let started = process.hrtime.bigint();
    await api("POST", `/v1/projects/${project}/experiments/${recorded}/results`, {
      results: ids.map((i) => ({ rowId: `r${i}`, output: outputOf(i), latencyMs: 12, tokens: 40 })),
    });
    times.results += secondsSince(started);
    started = process.hrtime.bigint();
    await api("POST", `/v1/projects/${project}/datasets/${inserted}/rows`, {
      rows: ids.map((i) => ({ id: `r${i}`, input: { question: `What is ${i} + 1?` }, output: outputOf(i) })),
    });
    times.rows += secondsSince(started);
  }

  // Compare: a second experiment of each dataset, its results those of the first with one row in a
  // hundred scoring worse, written directly (nothing measured goes through it).
  log("seeding the experiments to compare…");
  const small = await seed("expsmall", 100);
  const smallA = await start(small, "small a");
  const copyInto = async (from: string | null, to: string, rows: number) => {
    if (from === null) {
      await sql`
        INSERT INTO experiment_results (experiment_id, row_id, row_version, output)
        SELECT ${to}, 'r' || i, 1, to_jsonb('answer ' || i) FROM generate_series(0, ${rows - 1}) AS i`.execute(
        handle.db,
      );
      await sql`
        INSERT INTO experiment_scores (experiment_id, row_id, name, value_kind, value_number, source, actor_kind, actor_id)
        SELECT ${to}, 'r' || i, 'exact', 'boolean', 1, 'rule', 'apiKey', 'bench'
        FROM generate_series(0, ${rows - 1}) AS i`.execute(handle.db);
      return;
    }
    await sql`
      INSERT INTO experiment_results (experiment_id, row_id, row_version, output)
      SELECT ${to}, row_id, row_version, output FROM experiment_results WHERE experiment_id = ${from}`.execute(
      handle.db,
    );
    await sql`
      INSERT INTO experiment_scores (experiment_id, row_id, name, value_kind, value_number, source, actor_kind, actor_id)
      SELECT ${to}, row_id, name, value_kind,
        CASE WHEN substr(row_id, 2)::int % 100 = 7 THEN 0 ELSE value_number END, source, actor_kind, actor_id
      FROM experiment_scores WHERE experiment_id = ${from}`.execute(handle.db);
  };
  await copyInto(null, smallA, 100);
  const smallB = await start(small, "small b");
  await copyInto(smallA, smallB, 100);
  const bigB = await start(big, "big b");
  await copyInto(recorded, bigB, ROWS);
  await sql`ANALYZE experiment_results`.execute(handle.db);
  await sql`ANALYZE experiment_scores`.execute(handle.db);
  const compare = (a: string, b: string) => () =>
    api("GET", `/v1/projects/${project}/experiments/${a}/compare/${b}?limit=50`);
  const [bigCompare, smallCompare] = (await measureInTurns(
    [compare(recorded, bigB), compare(smallA, smallB)],
    {
      warmup: 2,
      samples: 20,
    },
  )) as [Timing, Timing];

  // The summary of an experiment of a million results, read with the experiment.
  log(`seeding a ${SUMMARY_ROWS.toLocaleString("en")}-row dataset and an experiment of as many results…`);
  const huge = await seed("exphuge", SUMMARY_ROWS);
  const hugeExperiment = await start(huge, "huge");
  await copyInto(null, hugeExperiment, SUMMARY_ROWS);
  await sql`ANALYZE experiment_results`.execute(handle.db);
  await sql`ANALYZE experiment_scores`.execute(handle.db);
  const summaryTimes: number[] = [];
  for (let i = 0; i < 5; i++) {
    const started = process.hrtime.bigint();
    const read = await api<{ results: number }>(
      "GET",
      `/v1/projects/${project}/experiments/${hugeExperiment}`,
    );
    summaryTimes.push(secondsSince(started) * 1000);
    if (read.results !== SUMMARY_ROWS) throw new Error(`the summary counts ${read.results} results`);
  }

  // An incremental run: 50 rows edited since the recorded experiment, then the SDK's runner.
  log("editing 50 rows and running incrementally…");
  await api("PATCH", `/v1/projects/${project}/datasets/${big}/rows`, {
    edits: Array.from({ length: 50 }, (_, i) => ({
      rowId: `r${(i * 997) % ROWS}`,
      expectedOutput: `edited ${i}`,
    })),
  });
  const sdk = new Client({ baseUrl: platform.baseUrl, apiKey: platform.ownerKey });
  let calls = 0;
  const runStarted = process.hrtime.bigint();
  const incremental = await start(big, "incremental", exact, recorded);
  const startSeconds = secondsSince(runStarted);
  const outcome = await sdk.experiments.run({
    projectSlug: project,
    datasetSlug: big,
    name: "incremental",
    experimentId: incremental,
    evaluators: exact,
    task: (row) => {
      calls += 1;
      return `answer ${row.rowId.slice(1)}`;
    },
  });
  const runSeconds = secondsSince(runStarted);
  // What a page of pending rows costs when none is left among 100,000: the scan behind the run's.
  const pendingStarted = process.hrtime.bigint();
  await api("GET", `/v1/projects/${project}/experiments/${incremental}/pending?limit=200`);
  const pendingSeconds = secondsSince(pendingStarted);
  if (outcome.experiment.results !== ROWS) {
    throw new Error(`the incremental run ended with ${outcome.experiment.results} results of ${ROWS}`);
  }

  const resultsRate = ROWS / times.results;
  const rowsRate = ROWS / times.rows;
  const summaryMs = median(summaryTimes);
  const rows: Row[] = [
    {
      measurement: `record ${ROWS.toLocaleString("en")} results in batches of ${BATCH}, rows/s`,
      subject: "POST …/results",
      baseline: "POST …/rows (insert)",
      subjectMs: resultsRate,
      baselineMs: rowsRate,
      target: "≥ 0.5",
      pass: resultsRate / rowsRate >= 0.5,
    },
    {
      measurement: "compare, first page of 50, median ms",
      subject: `${ROWS.toLocaleString("en")} rows`,
      baseline: "100 rows",
      subjectMs: bigCompare.median,
      baselineMs: smallCompare.median,
      target: "≤ 1.2",
      pass: bigCompare.median / smallCompare.median <= 1.2,
    },
  ];
  const table = printTable("Experiments (distributed platform, PostgreSQL)", rows, "rows/s or median ms");
  const absolute = [
    `an experiment of ${SUMMARY_ROWS.toLocaleString("en")} results read with its summary: median ${summaryMs.toFixed(0)} ms of 5 (target ≤ 1,000 ms: ${summaryMs <= 1000 ? "met" : "MISSED"})`,
    `an incremental run after 50 edits of ${ROWS.toLocaleString("en")} rows: ${calls} task calls (target 50: ${calls === 50 ? "met" : "MISSED"}), ${runSeconds.toFixed(2)} s in all with a task that answers at once (target ≤ 2 s: ${runSeconds <= 2 ? "met" : "MISSED"}), of which ${startSeconds.toFixed(2)} s to start it (carrying ${(ROWS - 50).toLocaleString("en")} results over) and a page of pending rows (none left) takes ${pendingSeconds.toFixed(2)} s`,
  ];
  console.log(absolute.join("\n"));
  if (process.argv.includes("--write")) {
    writeSection(
      "experiments",
      `## Experiments: recording, compare, summary, incremental runs

Measured by \`npm run bench -- experiments --write\` (bench/src/experiments.ts) on ${new Date().toISOString().slice(0, 10)}, on
${machine()}, everything on the one machine. Results and rows are written batch by batch in turns
(a batch of results, then a batch of rows), both through the gateway; the compare row is the median
of 20 first pages of each side, taken in turns.

${table}

- ${absolute.join("\n- ")}`,
    );
  }
  process.exitCode =
    rows.every((row) => row.pass) && summaryMs <= 1000 && calls === 50 && runSeconds <= 2 ? 0 : 1;
} finally {
  await handle.close();
  await platform.stop();
}
