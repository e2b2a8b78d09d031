import { type Bus, callOperation, InProcessBus, type RawInput } from "@svc/bus";
import { newId, type Operation, operations } from "@svc/contracts";
import { registerDatasetWriter } from "@svc/dataset-writer";
import { migrateToLatest, openDatabase } from "@svc/db";
import { createScratchDatabase } from "@svc/db/testing";
import { registerReader } from "@svc/reader";
import { silentLogger } from "@svc/telemetry";
import { sql } from "kysely";
import { measureInTurns, printTable, type Row, type Timing } from "./measure";
import { machine, writeSection } from "./report";
import { seedOrganization } from "./seed";

/**
 * Reading an old version and diffing adjacent versions must cost what they return, not the history
 * that came after. A 100,000-row dataset is read at version 1 after 10,000 later edits, and against
 * the same read on a fresh dataset of the same size with one later edit (so both reads go through
 * the revision history, and only the amount of later history differs).
 */
const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);
const EDITS = Number(process.env.BENCH_EDITS ?? 10_000);

const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) throw new Error("the benchmark needs DATABASE_URL (a PostgreSQL server)");
const scratch = await createScratchDatabase(databaseUrl, "bench");
const database = await openDatabase({ url: scratch.url, poolSize: 10 });
try {
  await migrateToLatest(database.db);
  const bus = new InProcessBus();
  const deps = { bus, db: database.db, logger: silentLogger() };
  registerDatasetWriter(deps);
  registerReader({ ...deps, copyTo: database.copyTo });
  const { context } = await seedOrganization(database.db);
  const call = <O extends Operation>(op: O, input: Partial<RawInput>) =>
    callOperation(bus as Bus, op, context, {
      params: { projectSlug: "bench", ...input.params },
      query: input.query ?? {},
      body: input.body,
      headers: {},
    });

  console.log(`loading two datasets of ${ROWS} rows…`);
  const aged = await makeDataset("aged");
  const fresh = await makeDataset("fresh");
  console.log(`${EDITS} edits of the aged dataset…`);
  const started = Date.now();
  for (let i = 0; i < EDITS; i++) {
    const rowId = `r${(i * 7919) % ROWS}`;
    await call(operations.updateDatasetRow, {
      params: { datasetSlug: aged, rowId },
      body: { expectedOutput: { edit: i } },
    });
  }
  console.log(`  ${((EDITS / (Date.now() - started)) * 1000).toFixed(0)} edits/s`);
  await call(operations.updateDatasetRow, {
    params: { datasetSlug: fresh, rowId: "r1" },
    body: { output: "x" },
  });
  await sql`ANALYZE`.execute(database.db);

  const read = (datasetSlug: string, query: Record<string, string>) => () =>
    call(operations.listDatasetRows, { params: { datasetSlug }, query });
  const cursorAfter = async (datasetSlug: string, pages: number) => {
    let cursor = "";
    for (let i = 0; i < pages; i++) {
      const page = await call(operations.listDatasetRows, {
        params: { datasetSlug },
        query: { version: "1", limit: "200", ...(cursor ? { cursor } : {}) },
      });
      cursor = page.nextCursor ?? "";
    }
    return cursor;
  };
  // A cursor into the middle of the dataset: the read there must cost no more than at the start.
  const agedCursor = await cursorAfter(aged, Math.floor(ROWS / 400));
  const freshCursor = await cursorAfter(fresh, Math.floor(ROWS / 400));
  const diff = (datasetSlug: string, from: number) => () =>
    call(operations.diffDatasetVersions, {
      params: { datasetSlug },
      query: { from: String(from), to: String(from + 1) },
    });

  const compare = async (
    measurement: string,
    subject: () => Promise<unknown>,
    baseline: () => Promise<unknown>,
  ) => {
    const [s, b] = (await measureInTurns([subject, baseline])) as [Timing, Timing];
    const ratio = s.median / b.median;
    return {
      measurement,
      subject: `after ${EDITS} edits`,
      baseline: "fresh",
      subjectMs: s.median,
      baselineMs: b.median,
      target: "≤ 1.5",
      pass: ratio <= 1.5,
    } satisfies Row;
  };
  const rows = [
    await compare(
      "list rows at version 1, first page of 100",
      read(aged, { version: "1", limit: "100" }),
      read(fresh, { version: "1", limit: "100" }),
    ),
    await compare(
      "list rows at version 1, a page in the middle",
      read(aged, { version: "1", limit: "100", cursor: agedCursor }),
      read(fresh, { version: "1", limit: "100", cursor: freshCursor }),
    ),
    await compare(
      "get one row at version 1",
      () =>
        call(operations.getDatasetRow, {
          params: { datasetSlug: aged, rowId: "r0" },
          query: { version: "1" },
        }),
      () =>
        call(operations.getDatasetRow, {
          params: { datasetSlug: fresh, rowId: "r0" },
          query: { version: "1" },
        }),
    ),
    await compare("diff of two adjacent versions", diff(aged, Math.floor(EDITS / 2)), diff(fresh, 1)),
  ];
  const table = printTable(`History costs (${ROWS} rows, ${EDITS} later edits; PostgreSQL)`, rows);
  if (process.argv.includes("--write")) {
    writeSection(
      "history",
      `## Cost of history

Measured by \`npm run bench -- history --write\` (bench/src/history.ts) on ${new Date().toISOString().slice(0, 10)}, on
${machine()}. Two datasets of ${ROWS.toLocaleString("en")} rows each are loaded as version 1; one then takes
${EDITS.toLocaleString("en")} edits through the dataset-writer, the other one. Each read goes through the reader's
use-cases on PostgreSQL (in-process bus, so that only the database work is compared), median of 200 after
20 warm-up runs, the aged dataset and the fresh one taking turns read by read.

${table}`,
    );
  }
  process.exitCode = rows.every((r) => r.pass) ? 0 : 1;

  /** A dataset whose version 1 holds all ROWS rows, loaded in bulk as one import would. */
  async function makeDataset(name: string): Promise<string> {
    const dataset = await call(operations.createDataset, { body: { name } });
    const id = dataset.id;
    await sql`
      INSERT INTO dataset_rows (dataset_id, row_id, input, output, expected_output, metadata, custom, created_at, version)
      SELECT ${id}, 'r' || i, jsonb_build_object('question', 'q' || i), to_jsonb('answer ' || i), 'null'::jsonb,
             jsonb_build_object('n', i), '{}'::jsonb, now() + make_interval(secs => i / 1000.0), 1
      FROM generate_series(0, ${ROWS - 1}) AS i`.execute(database.db);
    await sql`
      INSERT INTO row_revisions (dataset_id, row_id, version_from, deleted, input, output, expected_output, metadata, custom, created_at)
      SELECT dataset_id, row_id, 1, false, input, output, expected_output, metadata, custom, created_at
      FROM dataset_rows WHERE dataset_id = ${id}`.execute(database.db);
    await sql`UPDATE datasets SET current_version = 1, row_count = ${ROWS} WHERE id = ${id}`.execute(
      database.db,
    );
    await database.db
      .insertInto("dataset_versions")
      .values({
        id: newId(),
        dataset_id: id,
        version: 1,
        operation: "import",
        rows_inserted: ROWS,
        rows_updated: 0,
        rows_deleted: 0,
        row_count: ROWS,
        actor_kind: "apiKey",
        actor_id: "bench",
      })
      .execute();
    return dataset.slug;
  }
} finally {
  await database.close();
  await scratch.drop();
}
