import { createReadStream, createWriteStream, mkdtempSync, rmSync, statSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { finished } from "node:stream/promises";
import { buildSearchIndex, openDatabase } from "@svc/db";
import { startPlatform } from "@svc/testing/platform";
import { sql } from "kysely";
import { measureInTurns, printTable, type Row, type Timing } from "./measure";
import { ownerApi, secondsSince } from "./owner-api";
import { log, machine, writeSection } from "./report";
import { seedDatasets, seedHistory } from "./seed";

/**
 * Row search on the distributed platform (docs/decisions/0046-row-search.md): the first page of a
 * search of a 1,000,000-row dataset for a rare term (10 rows), a term in 1% of the rows and a term in
 * every row, and the rare term at an old version, each beside the plain first page in the same run;
 * first without the trigram index (a few samples: each takes seconds), then with it. Also an import
 * of 100,000 rows without the index and with it, and the time the index takes to build.
 */
const ROWS = Number(process.env.BENCH_SEARCH_ROWS ?? 1_000_000);
const IMPORT_ROWS = Number(process.env.BENCH_SEARCH_IMPORT_ROWS ?? 100_000);
const EDITS = 100;

const platform = await startPlatform({ writers: 1 });
const handle = await openDatabase({ url: platform.databaseUrl, poolSize: 2 });
const api = ownerApi(platform);
const dir = mkdtempSync(join(tmpdir(), "svc-bench-search-"));
const load = () => loadavg()[0]?.toFixed(1) ?? "?";

try {
  const project = (await api<{ slug: string }>("POST", "/v1/projects", { name: "Search" })).slug;
  const { id: projectId, organization_id: organizationId } = await handle.db
    .selectFrom("projects")
    .select(["id", "organization_id"])
    .where("slug", "=", project)
    .executeTakeFirstOrThrow();
  const datasetPath = (slug: string) => `/v1/projects/${project}/datasets/${slug}`;

  // The index comes back below, built as the platform builds it; the seed is loaded without it.
  await sql`DROP INDEX IF EXISTS row_revisions_search`.execute(handle.db);
  log(`seeding a ${ROWS.toLocaleString("en")}-row dataset…`);
  await seedDatasets(handle.db, {
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
      WHERE dataset_id = 'search1' AND (substr(row_id, 2)::int % 100 = 3)`.execute(handle.db);
  }
  const version = await seedHistory(handle.db, "search1", EDITS).then(() => 1 + EDITS);
  await sql`VACUUM ANALYZE row_revisions`.execute(handle.db);
  await sql`VACUUM ANALYZE dataset_rows`.execute(handle.db);

  const page = (query: string) => () => api("GET", `${datasetPath("search1")}/rows?limit=50${query}`);
  const sides = [
    { label: "a rare term (10 rows)", query: "&search=zanzibar" },
    { label: "a term in 1% of the rows", query: "&search=review" },
    { label: "a term in every row", query: "&search=answer" },
    { label: "the rare term at version 1 (of 101)", query: "&search=zanzibar&version=1" },
  ];
  const measureAll = (samples: number, warmup: number) =>
    measureInTurns([page(""), ...sides.map((side) => page(side.query))], { samples, warmup });

  log("first pages without the index…");
  const loadBefore = load();
  const before = (await measureAll(3, 1)) as Timing[];

  log(`importing ${IMPORT_ROWS.toLocaleString("en")} rows without the index…`);
  const file = await writeCsv(join(dir, "rows.csv"), IMPORT_ROWS);
  const importWithout = await importFile(project, "Import without index", file);

  log("building the index…");
  const buildStarted = process.hrtime.bigint();
  if (!(await buildSearchIndex(handle.db))) throw new Error("the search index was not built");
  const buildSeconds = secondsSince(buildStarted);
  const { rows: sizes } = await sql<{ index: string; table: string }>`
    SELECT pg_size_pretty(pg_relation_size('row_revisions_search')) AS index,
           pg_size_pretty(pg_relation_size('row_revisions')) AS table`.execute(handle.db);

  log(`importing ${IMPORT_ROWS.toLocaleString("en")} rows with the index…`);
  const importWith = await importFile(project, "Import with index", file);

  log("first pages with the index…");
  const loadAfter = load();
  const after = (await measureAll(20, 3)) as Timing[];

  const plain = after[0] as Timing;
  const rows: Row[] = sides.map((side, i) => {
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
  const table = printTable(
    `Row search, ${ROWS.toLocaleString("en")} rows (distributed platform, PostgreSQL)`,
    rows,
  );
  const withoutIndex = sides
    .map((side, i) => `${side.label} ${(before[i + 1] as Timing).median.toFixed(0)} ms`)
    .join(", ");
  const notes = [
    `without the index (median of 3, load average ${loadBefore}): no search ${(before[0] as Timing).median.toFixed(0)} ms, ${withoutIndex}`,
    `with the index: median of 20 in turns, load average ${loadAfter} when they began`,
    `building the index on ${(ROWS + EDITS + IMPORT_ROWS).toLocaleString("en")} revisions (CREATE INDEX CONCURRENTLY, then ANALYZE): ${buildSeconds.toFixed(0)} s; index ${sizes[0]?.index}, table ${sizes[0]?.table}`,
    `importing ${IMPORT_ROWS.toLocaleString("en")} rows: ${importWithout.toFixed(1)} s without the index, ${importWith.toFixed(1)} s with it (${(importWith / importWithout).toFixed(2)}×)`,
  ];
  console.log(notes.join("\n"));
  if (process.argv.includes("--write")) {
    writeSection(
      "search",
      `## Row search

Measured by \`npm run bench -- search --write\` (bench/src/search.ts) on ${new Date().toISOString().slice(0, 10)}, on
${machine()}, everything on the one machine. A dataset of ${ROWS.toLocaleString("en")} rows and ${EDITS} later
edits (version ${version}); each search is the first page of 50, newest first, through the gateway,
beside the plain first page, in turns (docs/decisions/0046-row-search.md).

${table}

- ${notes.join("\n- ")}`,
    );
  }
  process.exitCode = rows.every((row) => row.pass) ? 0 : 1;
} finally {
  await handle.close();
  await platform.stop();
  rmSync(dir, { recursive: true, force: true });
}

/** A CSV of `rows` question-answer rows, about 200 bytes each, as the bulk benchmark writes. */
async function writeCsv(file: string, rows: number): Promise<string> {
  const out = createWriteStream(file);
  out.write("id,input,output,expected_output\n");
  for (let i = 0; i < rows; i++) {
    const line = `q${i},"{""question"":""What is ${i} plus ${i + 7}? Show the steps."",""lang"":""en""}",The sum is ${2 * i + 7}.,${2 * i + 7}\n`;
    if (!out.write(line)) await new Promise<void>((resolve) => out.once("drain", () => resolve()));
  }
  out.end();
  await finished(out);
  return file;
}

/** Imports `file` into a new dataset through the platform; the seconds until the import succeeded. */
async function importFile(project: string, name: string, file: string): Promise<number> {
  const slug = (await api<{ slug: string }>("POST", `/v1/projects/${project}/datasets`, { name })).slug;
  const target = `/v1/projects/${project}/datasets/${slug}`;
  const started = process.hrtime.bigint();
  const response = await fetch(`${platform.baseUrl}${target}/imports`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${platform.ownerKey}`,
      "content-type": "text/csv",
      "content-length": String(statSync(file).size),
    },
    body: Readable.toWeb(createReadStream(file)) as ReadableStream,
    duplex: "half",
  } as RequestInit);
  if (!response.ok) throw new Error(`the import was refused: ${response.status} ${await response.text()}`);
  const { importId } = (await response.json()) as { importId: string };
  for (;;) {
    const state = await api<{ state: string; error?: unknown }>("GET", `${target}/imports/${importId}`);
    if (state.state === "succeeded") return secondsSince(started);
    if (state.state === "failed") throw new Error(`the import failed: ${JSON.stringify(state.error)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
