import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDatabase } from "@svc/db";
import { startPlatform } from "@svc/testing/platform";
import { sql } from "kysely";
import { importFile, writeImportFile } from "./import-file";
import { measureInTurns, printTable, type Row, type Timing } from "./measure";
import { median, ownerApi, secondsSince } from "./owner-api";
import { watchProcesses } from "./process-usage";
import { machine, verdict, writeSection } from "./report";
import { seedDatasets } from "./seed";

/**
 * The bulk paths of the distributed platform, each beside a baseline measured in the same run:
 * importing a generated CSV against `psql \copy` of the rows it wrote into tables like the platform's
 * own (the fair floor of the storage design), and of the same file into a plain table; exporting at an
 * old version against `COPY (SELECT …) TO STDOUT` of the current rows; the first page of "missing
 * expected output" on a million rows against a hundred; a 1,000-edit batch against 1,000 single
 * edits. Peak RSS of every process is sampled during the import and the export.
 */
const ROWS = Number(process.env.BENCH_IMPORT_ROWS ?? 1_000_000);
const FILTER_ROWS = Number(process.env.BENCH_FILTER_ROWS ?? 1_000_000);

const platform = await startPlatform({ writers: 1 });
const handle = await openDatabase({ url: platform.databaseUrl, poolSize: 2 });
const dir = mkdtempSync(join(tmpdir(), "svc-bench-bulk-"));
const owner = { authorization: `Bearer ${platform.ownerKey}` };
const api = ownerApi(platform);

try {
  const project = (await api<{ slug: string }>("POST", "/v1/projects", { name: "Bulk" })).slug;
  const dataset = async (name: string) =>
    `/v1/projects/${project}/datasets/${(await api<{ slug: string }>("POST", `/v1/projects/${project}/datasets`, { name })).slug}`;

  // A file of about 200 bytes a row, like a dataset hub's question-answer exports.
  const file = join(dir, "rows.csv");
  console.log(`writing a ${ROWS}-row CSV…`);
  const bytes = await writeImportFile(file, ROWS);

  // Baseline: psql \copy of the same file into a plain table of the same shape.
  await sql`CREATE TABLE bench_copy (id text, input text, output text, expected_output text)`.execute(
    handle.db,
  );
  const copyStarted = process.hrtime.bigint();
  const copied = spawnSync(
    "psql",
    [platform.databaseUrl, "-q", "-c", `\\copy bench_copy FROM '${file}' CSV HEADER`],
    {
      encoding: "utf8",
    },
  );
  if (copied.status !== 0) throw new Error(`psql \\copy failed: ${copied.stderr}`);
  const copySeconds = secondsSince(copyStarted);

  console.log("importing it through the platform…");
  const target = await dataset("Imported");
  const importStarted = process.hrtime.bigint();
  const imported = await watchProcesses(platform, () => importFile(platform, target, file));
  const importSeconds = secondsSince(importStarted);

  // The fair floor of the storage design: the rows the import wrote, in the two tables' own shapes,
  // copied with \copy into empty tables made like them (the same indexes and the one-live-revision
  // constraint), one after the other.
  console.log("copying the imported rows into tables like the platform's…");
  const importedId = (await api<{ id: string }>("GET", target)).id;
  const floorSeconds = copyIntoLikeTables(importedId);

  // Export version 1 once a later edit has moved the dataset on, against COPY of the current rows.
  await api("PATCH", `${target}/rows/q0`, { expectedOutput: "edited" });
  const datasetId = (await api<{ id: string }>("GET", target)).id;
  const exportOnce = async () => {
    const response = await fetch(`${platform.baseUrl}${target}/export?format=csv&version=1`, {
      headers: owner,
    });
    let size = 0;
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) size += chunk.byteLength;
    return size;
  };
  const dumpOnce = () => {
    const dumped = spawnSync(
      "psql",
      [
        platform.databaseUrl,
        "-q",
        "-c",
        `\\copy (SELECT row_id, input, output, expected_output, metadata, custom FROM dataset_rows WHERE dataset_id = '${datasetId}' ORDER BY created_at, row_id) TO '/dev/null' CSV HEADER`,
      ],
      { encoding: "utf8" },
    );
    if (dumped.status !== 0) throw new Error(`psql \\copy out failed: ${dumped.stderr}`);
  };
  // Each 3 times in turns (export, COPY, COPY, export, export, COPY), the medians compared: one
  // run of each swings with whatever else the machine does. The first export is watched.
  const timed = async (work: () => unknown) => {
    const started = process.hrtime.bigint();
    await work();
    return secondsSince(started);
  };
  let exported: Awaited<ReturnType<typeof watchProcesses<number>>> | undefined;
  const exportTimes = [
    await timed(async () => {
      exported = await watchProcesses(platform, exportOnce);
    }),
  ];
  const dumpTimes = [await timed(dumpOnce), await timed(dumpOnce)];
  exportTimes.push(await timed(exportOnce), await timed(exportOnce));
  dumpTimes.push(await timed(dumpOnce));
  if (!exported) throw new Error("the export was not watched");
  const exportSeconds = median(exportTimes);
  const dumpSeconds = median(dumpTimes);

  // "Missing expected output": a million rows of which one in a thousand lacks one, against a hundred.
  console.log(`seeding ${FILTER_ROWS} rows for the filter…`);
  const projectId = (
    await handle.db.selectFrom("projects").select("id").where("slug", "=", project).executeTakeFirstOrThrow()
  ).id;
  const organizationId = (
    await handle.db
      .selectFrom("projects")
      .select("organization_id")
      .where("id", "=", projectId)
      .executeTakeFirstOrThrow()
  ).organization_id;
  await seedDatasets(handle.db, {
    organizationId,
    projectId,
    idPrefix: "bigf",
    slugPrefix: "bigf",
    count: 1,
    rows: FILTER_ROWS,
  });
  await seedDatasets(handle.db, {
    organizationId,
    projectId,
    idPrefix: "smallf",
    slugPrefix: "smallf",
    count: 1,
    rows: 100,
  });
  // Both first pages hold 50 rows, so that the two sides differ in the dataset's size alone: one row
  // in a thousand lacks an expected output in the big dataset, one in two in the small one.
  for (const [id, every] of [
    ["bigf1", 1000],
    ["smallf1", 2],
  ] as const) {
    await sql`UPDATE dataset_rows SET expected_output = to_jsonb('answer'::text) WHERE dataset_id = ${id} AND (substr(row_id, 2)::int % ${every}) <> 1`.execute(
      handle.db,
    );
  }
  await sql`ANALYZE dataset_rows`.execute(handle.db);
  const missing = (slug: string) => () =>
    api("GET", `/v1/projects/${project}/datasets/${slug}/rows?missing=expectedOutput&limit=50`);
  const [big, small] = (await measureInTurns([missing("bigf1"), missing("smallf1")], { samples: 100 })) as [
    Timing,
    Timing,
  ];

  // A 1,000-edit batch against 1,000 single edits of the same rows, in turns.
  const edited = await dataset("Edited");
  for (let from = 0; from < 1000; from += 1000) {
    await api("POST", `${edited}/rows`, {
      rows: Array.from({ length: 1000 }, (_, i) => ({ id: `e${from + i}`, input: { n: from + i } })),
    });
  }
  let round = 0;
  const batch = () => {
    round++;
    return api("PATCH", `${edited}/rows`, {
      edits: Array.from({ length: 1000 }, (_, i) => ({ rowId: `e${i}`, expectedOutput: { round, i } })),
    });
  };
  const singles = async () => {
    round++;
    for (let i = 0; i < 1000; i++)
      await api("PATCH", `${edited}/rows/e${i}`, { expectedOutput: { round, i } });
  };
  const [batched, single] = (await measureInTurns([batch, singles], { warmup: 1, samples: 3 })) as [
    Timing,
    Timing,
  ];

  const rows: Row[] = [
    {
      measurement: `import a ${ROWS.toLocaleString("en")}-row CSV, rows/s, against \\copy into the same two tables`,
      subject: "platform",
      baseline: "psql \\copy ×2",
      subjectMs: ROWS / importSeconds,
      baselineMs: ROWS / floorSeconds,
      target: "≥ 0.5",
      pass: floorSeconds / importSeconds >= 0.5,
    },
    {
      measurement: `import a ${ROWS.toLocaleString("en")}-row CSV (${(bytes / 2 ** 20).toFixed(0)} MiB), seconds`,
      subject: "platform",
      baseline: "target",
      subjectMs: importSeconds,
      baselineMs: 30,
      target: "≤ 30 s",
      pass: importSeconds <= 30,
    },
    {
      // Rates in rows per second rather than times: the ratio is the platform's share of the baseline's rate.
      measurement: `import a ${ROWS.toLocaleString("en")}-row CSV (${(bytes / 2 ** 20).toFixed(0)} MiB), rows/s`,
      subject: "platform",
      baseline: "psql \\copy",
      subjectMs: ROWS / importSeconds,
      baselineMs: ROWS / copySeconds,
      target: "≥ 0.5",
      pass: copySeconds / importSeconds >= 0.5,
    },
    {
      measurement: `export ${ROWS.toLocaleString("en")} rows at an old version, rows/s`,
      subject: "platform",
      baseline: "COPY TO STDOUT",
      subjectMs: ROWS / exportSeconds,
      baselineMs: ROWS / dumpSeconds,
      target: "≥ 0.5",
      pass: dumpSeconds / exportSeconds >= 0.5,
    },
    {
      measurement: "missing=expectedOutput, first page of 50",
      subject: `${FILTER_ROWS.toLocaleString("en")} rows`,
      baseline: "100 rows",
      subjectMs: big.median,
      baselineMs: small.median,
      target: "≤ 1.2",
      pass: big.median / small.median <= 1.2,
    },
    {
      measurement: "1,000 edits: one batch vs one by one, ms",
      subject: "PATCH /rows",
      baseline: "1,000 × PATCH /rows/{id}",
      subjectMs: batched.median,
      baselineMs: single.median,
      target: "≤ 0.1",
      pass: batched.median / single.median <= 0.1,
    },
  ];
  const table = printTable("Bulk paths (distributed platform, PostgreSQL)", rows, "rows/s, s or median ms");
  const peaks = (label: string, of: Record<string, number>) =>
    `${label}: ${Object.entries(of)
      .map(([name, mb]) => `${name.split(":")[0]} ${mb.toFixed(0)} MB`)
      .join(", ")}`;
  const memory = [peaks("import", imported.peaks), peaks("export", exported.peaks)];
  const cpuOf = (label: string, of: Record<string, number>) =>
    `${label}: ${Object.entries(of)
      .filter(([, seconds]) => seconds >= 0.05)
      .map(([name, seconds]) => `${name} ${seconds.toFixed(1)}`)
      .join(", ")}`;
  const cpu = [
    cpuOf(`import (${importSeconds.toFixed(1)} s)`, imported.cpu),
    cpuOf(`export (${(exportTimes[0] as number).toFixed(1)} s, the first)`, exported.cpu),
  ];
  const worst = Math.max(...Object.values(imported.peaks), ...Object.values(exported.peaks));
  console.log(`${memory.join("\n")}\npeak RSS of any process: ${worst.toFixed(0)} MB (target ≤ 200 MB)`);
  console.log(`exported ${(exported.result / 2 ** 20).toFixed(0)} MiB`);
  console.log(`CPU seconds\n${cpu.join("\n")}`);
  if (process.argv.includes("--write")) {
    writeSection(
      "bulk",
      `## Bulk paths: import, export, filters, batches

Measured by \`npm run bench -- bulk --write\` (bench/src/bulk.ts) on ${new Date().toISOString().slice(0, 10)}, on
${machine()}, everything on the one machine: PostgreSQL, NATS, the distributed platform's processes and
the client. The import and export rows compare rates in rows per second (0.5 means half the
baseline's rate). The import's first baseline is the floor of the storage design: \`psql \\copy\` of the rows and
revisions the import wrote, in their own shapes, into empty tables made like \`dataset_rows\` and
\`row_revisions\` (\`LIKE … INCLUDING ALL\`: the same indexes, the search's trigram index and the
one-live-revision constraint), one after the other; its last, \`psql \\copy\` of the file into a plain table, for
reference; the export's from the median times of 3 runs of each side taken in turns; the filter row compares median times in ms of 100 requests taken in turns; the
batch row, median times in ms of 3 rounds of each, in turns (0.1 means ten times faster).

${table}

Peak resident memory, sampled every 100 ms: ${memory.join("; ")} (target ≤ 200 MB for every process:
${verdict(worst <= 200)}).

CPU seconds of each process while it ran (2 cores): ${cpu.join("; ")}.`,
    );
  }
  process.exitCode = rows.every((row) => row.pass) && worst <= 200 ? 0 : 1;

  /**
   * Seconds that \copy takes to write the dataset's rows and revisions, as the import left them,
   * into empty tables made like \`dataset_rows\` and \`row_revisions\` (INCLUDING ALL: their indexes,
   * the search's trigram index and the exclusion constraint).
   */
  function copyIntoLikeTables(datasetId: string): number {
    const psql = (command: string) => {
      const run = spawnSync("psql", [platform.databaseUrl, "-q", "-v", "ON_ERROR_STOP=1", "-c", command], {
        encoding: "utf8",
      });
      if (run.status !== 0) throw new Error(`psql failed: ${run.stderr}`);
    };
    const tables = [
      ["dataset_rows", "bench_floor_rows"],
      ["row_revisions", "bench_floor_revisions"],
    ] as const;
    for (const [table, like] of tables) {
      psql(
        `\\copy (SELECT * FROM ${table} WHERE dataset_id = '${datasetId}') TO '${join(dir, `${like}.txt`)}'`,
      );
      psql(`CREATE TABLE ${like} (LIKE ${table} INCLUDING ALL)`);
    }
    const started = process.hrtime.bigint();
    for (const [, like] of tables) psql(`\\copy ${like} FROM '${join(dir, `${like}.txt`)}'`);
    const seconds = secondsSince(started);
    for (const [, like] of tables) psql(`DROP TABLE ${like}`);
    return seconds;
  }
} finally {
  await handle.close();
  await platform.stop();
  rmSync(dir, { recursive: true, force: true });
}
