import { loadavg } from "node:os";
import { type Bus, callOperation, InProcessBus, type RawInput } from "@svc/bus";
import { type Operation, operations } from "@svc/contracts";
import { registerDatasetWriter } from "@svc/dataset-writer";
import { buildSearchIndex, migrateToLatest, openDatabase } from "@svc/db";
import { createScratchDatabase } from "@svc/db/testing";
import { registerReader } from "@svc/reader";
import { silentLogger } from "@svc/telemetry";
import { sql } from "kysely";
import { measureInTurns, percentile, printTable, type Row, type Timing } from "./measure";
import { secondsSince } from "./owner-api";
import { log, machine, writeSection } from "./report";
import { seedDatasets, seedHistory, seedOrganization } from "./seed";

/**
 * Row search (docs/decisions/0046-row-search.md): the first page of a search of a 1,000,000-row
 * dataset for a rare term (10 rows), a term in 1% of the rows and a term in every row, and the rare
 * term at an old version, each beside the plain first page in the same run; first without the trigram
 * index (a few samples: each takes seconds), then with it. Also 100,000 rows inserted without the index
 * and with it, and the time the index takes to build; then a filtered list's exact count after an edit
 * against counting it afresh (docs/decisions/0054-filtered-row-counts.md). The reads and writes go
 * through the reader's and the writer's use-cases on PostgreSQL (in-process bus), so that only the
 * database work is compared.
 */
const ROWS = Number(process.env.BENCH_SEARCH_ROWS ?? 1_000_000);
const INSERT_ROWS = Number(process.env.BENCH_SEARCH_INSERT_ROWS ?? 100_000);
const BATCH = 1_000;
const EDITS = 100;

const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) throw new Error("the benchmark needs DATABASE_URL (a PostgreSQL server)");
const scratch = await createScratchDatabase(databaseUrl, "bench");
const database = await openDatabase({ url: scratch.url, poolSize: 4 });
const load = () => loadavg()[0]?.toFixed(1) ?? "?";

try {
  await migrateToLatest(database.db);
  const bus = new InProcessBus();
  const deps = { bus, db: database.db, logger: silentLogger() };
  registerDatasetWriter(deps);
  registerReader({ ...deps, copyTo: database.copyTo });
  const { organizationId, projectId, context } = await seedOrganization(database.db);
  const call = <O extends Operation>(op: O, input: Partial<RawInput>) =>
    callOperation(bus as Bus, op, context, {
      params: { projectSlug: "bench", ...input.params },
      query: input.query ?? {},
      body: input.body,
      headers: {},
    });

  // The index comes back below, built as the platform builds it; the seed is loaded without it.
  await sql`DROP INDEX IF EXISTS row_revisions_search`.execute(database.db);
  log(`seeding a ${ROWS.toLocaleString("en")}-row dataset…`);
  await seedDatasets(database.db, {
    organizationId,
    projectId,
    idPrefix: "search",
    slugPrefix: "search",
    count: 1,
    rows: ROWS,
  });
  // Every output holds "answer"; one row in a hundred comes from a review, one in 100,000 from Zanzibar.
  for (const table of ["dataset_rows", "row_revisions"] as const) {
    await sql`
      UPDATE ${sql.table(table)} SET metadata = jsonb_build_object('source',
        CASE WHEN substr(row_id, 2)::int % 100000 = 3 THEN 'zanzibar' ELSE 'review' END)
      WHERE dataset_id = 'search1' AND (substr(row_id, 2)::int % 100 = 3)`.execute(database.db);
  }
  const version = await seedHistory(database.db, "search1", EDITS).then(() => 1 + EDITS);
  await sql`VACUUM ANALYZE row_revisions`.execute(database.db);
  await sql`VACUUM ANALYZE dataset_rows`.execute(database.db);

  const page = (query: Record<string, string>) => () =>
    call(operations.listDatasetRows, {
      params: { datasetSlug: "search1" },
      query: { limit: "50", ...query },
    });
  const sides = [
    { label: "a rare term (10 rows)", query: { search: "zanzibar" } },
    { label: "a term in 1% of the rows", query: { search: "review" } },
    { label: "a term in every row", query: { search: "answer" } },
    { label: "the rare term at version 1 (of 101)", query: { search: "zanzibar", version: "1" } },
  ];
  const measureAll = (samples: number, warmup: number) =>
    measureInTurns([page({}), ...sides.map((side) => page(side.query))], { samples, warmup });

  log("first pages without the index…");
  const loadBefore = load();
  const before = (await measureAll(3, 1)) as Timing[];

  log(`inserting ${INSERT_ROWS.toLocaleString("en")} rows without the index…`);
  const insertWithout = await insertRows("Inserted without index");

  log("building the index…");
  const buildStarted = process.hrtime.bigint();
  if (!(await buildSearchIndex(database.db))) throw new Error("the search index was not built");
  const buildSeconds = secondsSince(buildStarted);
  const { rows: sizes } = await sql<{ index: string; table: string }>`
    SELECT pg_size_pretty(pg_relation_size('row_revisions_search')) AS index,
           pg_size_pretty(pg_relation_size('row_revisions')) AS table`.execute(database.db);

  log(`inserting ${INSERT_ROWS.toLocaleString("en")} rows with the index…`);
  const insertWith = await insertRows("Inserted with index");

  log("first pages with the index…");
  const loadAfter = load();
  const after = (await measureAll(20, 3)) as Timing[];

  log("counts: afresh, and followed after an edit…");
  const counts = await measureCounts();

  const plain = after[0] as Timing;
  const searchRows: Row[] = sides.map((side, i) => {
    const timing = after[i + 1] as Timing;
    return {
      measurement: `search for ${side.label}, first page of 50`,
      subject: "search",
      baseline: "no search",
      subjectMs: timing.median,
      baselineMs: plain.median,
      target: "≤ 1,000 ms",
      pass: timing.median <= 1000,
    };
  });
  const rows = [...searchRows, ...counts.rows];
  const table = printTable(
    `Row search, ${ROWS.toLocaleString("en")} rows (reader use-case, PostgreSQL)`,
    rows,
  );
  const withoutIndex = sides
    .map((side, i) => `${side.label} ${(before[i + 1] as Timing).median.toFixed(0)} ms`)
    .join(", ");
  const notes = [
    `without the index (median of 3, load average ${loadBefore}): no search ${(before[0] as Timing).median.toFixed(0)} ms, ${withoutIndex}`,
    `with the index: median of 20 in turns, load average ${loadAfter} when they began`,
    `building the index on ${(ROWS + EDITS + INSERT_ROWS).toLocaleString("en")} revisions (CREATE INDEX CONCURRENTLY, then ANALYZE): ${buildSeconds.toFixed(0)} s; index ${sizes[0]?.index}, table ${sizes[0]?.table}`,
    `inserting ${INSERT_ROWS.toLocaleString("en")} rows in batches of ${BATCH} through the writer: ${insertWithout.toFixed(1)} s without the index, ${insertWith.toFixed(1)} s with it (${(insertWith / insertWithout).toFixed(2)}×)`,
    ...counts.notes,
  ];
  console.log(notes.join("\n"));
  if (process.argv.includes("--write")) {
    writeSection(
      "search",
      `## Row search

Measured by \`npm run bench -- search --write\` (bench/src/search.ts) on ${new Date().toISOString().slice(0, 10)}, on
${machine()}, PostgreSQL on the same machine. A dataset of ${ROWS.toLocaleString("en")} rows and ${EDITS} later
edits (version ${version}); each search is the first page of 50, newest first, through the reader's
use-case (in-process bus), beside the plain first page, in turns (docs/decisions/0046-row-search.md).
Each count follows an edit of one row, against the statement that counts the matches afresh
(docs/decisions/0054-filtered-row-counts.md).

${table}

- ${notes.join("\n- ")}`,
    );
  }
  process.exitCode = rows.every((row) => row.pass) ? 0 : 1;

  /**
   * A filtered list's exact count (`countDatasetRows`): the first request for a filter counts every
   * match; after that, each edit's count is followed from the last one by what the edit changed. Each
   * sample edits one row (untimed), then times the count of the new version; the baseline is the
   * statement a first count runs, timed alone in turns with it.
   */
  async function measureCounts(): Promise<{ rows: Row[]; notes: string[] }> {
    const filters = [
      {
        label: "rows missing an expected output",
        query: { missing: "expectedOutput" },
        afresh: sql`SELECT count(*) FROM dataset_rows r WHERE r.dataset_id = 'search1'
          AND (r.expected_output IS NULL OR r.expected_output = 'null'::jsonb)`,
      },
      {
        label: "rows holding a term in 1% of them",
        query: { search: "review" },
        afresh: sql`SELECT count(*) FROM row_revisions r WHERE r.dataset_id = 'search1'
          AND r.version_to IS NULL AND NOT r.deleted
          AND (r.input::text ILIKE '%review%' OR r.output::text ILIKE '%review%'
            OR r.expected_output::text ILIKE '%review%' OR r.metadata::text ILIKE '%review%')`,
      },
    ];
    const count = (query: Record<string, string>) =>
      call(operations.countDatasetRows, { params: { datasetSlug: "search1" }, query });
    let edits = 0;
    const rows: Row[] = [];
    const notes: string[] = [];
    for (const filter of filters) {
      const firstStarted = process.hrtime.bigint();
      const first = await count(filter.query);
      const firstMs = secondsSince(firstStarted) * 1000;
      const followed: number[] = [];
      const afresh: number[] = [];
      for (let sample = 0; sample < 10; sample++) {
        edits++;
        await call(operations.updateDatasetRow, {
          params: { datasetSlug: "search1", rowId: `r${Math.floor(ROWS / 2) + edits}` },
          body: { expectedOutput: `checked ${edits}` },
        });
        let started = process.hrtime.bigint();
        await count(filter.query);
        followed.push(secondsSince(started) * 1000);
        if (sample % 3 === 0) {
          started = process.hrtime.bigint();
          await filter.afresh.execute(database.db);
          afresh.push(secondsSince(started) * 1000);
        }
      }
      const median = (times: number[]) =>
        percentile(
          [...times].sort((a, b) => a - b),
          0.5,
        );
      const subjectMs = median(followed);
      const baselineMs = median(afresh);
      rows.push({
        measurement: `count of the ${filter.label} (${first.count.toLocaleString("en")}), after an edit`,
        subject: "followed",
        baseline: "counted afresh",
        subjectMs,
        baselineMs,
        target: "≤ 0.1× or ≤ 20 ms",
        pass: subjectMs <= 0.1 * baselineMs || subjectMs <= 20,
      });
      notes.push(
        `the first count of the ${filter.label} (no count kept yet) took ${firstMs.toFixed(0)} ms; followed after an edit: median of 10, counted afresh: median of 4, in turns`,
      );
    }
    return { rows, notes };
  }

  /** Inserts INSERT_ROWS rows into a new dataset in batches through the writer; the seconds it took. */
  async function insertRows(name: string): Promise<number> {
    const { slug } = await call(operations.createDataset, { body: { name } });
    const started = process.hrtime.bigint();
    for (let from = 0; from < INSERT_ROWS; from += BATCH) {
      const ids = Array.from({ length: Math.min(BATCH, INSERT_ROWS - from) }, (_, i) => from + i);
      await call(operations.insertDatasetRows, {
        params: { datasetSlug: slug },
        body: {
          rows: ids.map((i) => ({
            id: `q${i}`,
            input: { question: `What is ${i} plus ${i + 7}? Show the steps.`, lang: "en" },
            output: `The sum is ${2 * i + 7}.`,
            expectedOutput: String(2 * i + 7),
          })),
        },
      });
    }
    return secondsSince(started);
  }
} finally {
  await database.close();
  await scratch.drop();
}
