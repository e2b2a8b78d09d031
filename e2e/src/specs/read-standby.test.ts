import { realInfra } from "@svc/testing";
import { PostgresPair, postgresPairAvailable } from "@svc/testing/postgres-pair";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditVersions } from "../audit";
import { client } from "../http";
import { type Platform, startPlatform } from "../platform";

const infra = realInfra();

/** The reader's application_name on the standby, to find its connections there. */
const STANDBY_APP = "svc-reader-standby";

function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;
}

async function query<T extends pg.QueryResultRow>(url: string, text: string, values: unknown[] = []) {
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  try {
    return (await db.query<T>(text, values)).rows;
  } finally {
    await db.end();
  }
}

describe.runIf(infra && postgresPairAvailable())("reads from a PostgreSQL hot standby", () => {
  let pair: PostgresPair;
  let platform: Platform;
  let standbyUrl: string;
  beforeAll(async () => {
    pair = await PostgresPair.start();
    platform = await startPlatform({
      databaseServerUrl: pair.primaryUrl,
      // Six processes migrating a new database beside two PostgreSQL servers on two shared cores.
      readyTimeoutMs: 90_000,
      readerEnv: (url) => {
        standbyUrl = pair.onStandby(url, STANDBY_APP);
        return { DATABASE_READ_URL: standbyUrl };
      },
    });
  }, 180_000);
  afterAll(async () => {
    await platform?.stop();
    await pair?.stop();
  });

  async function dataset(rows: number) {
    const api = client(platform.baseUrl, platform.ownerKey);
    const project = (await api.post<{ slug: string }>("/v1/projects", { name: `Standby ${Date.now()}` }))
      .body;
    const created = await api.post<{ slug: string; id: string }>(`/v1/projects/${project.slug}/datasets`, {
      name: "Reads",
    });
    const base = `/v1/projects/${project.slug}/datasets/${created.body.slug}`;
    const rowIds = Array.from({ length: rows }, (_, i) => `r${i}`);
    expect((await api.post(`${base}/rows`, { rows: rowIds.map((id) => ({ id, input: id })) })).status).toBe(
      201,
    );
    return { api, base, datasetId: created.body.id, rowIds };
  }

  it("runs dataset reads on the standby, where the reader's connections and transactions are", async () => {
    const { api, base } = await dataset(1);
    const database = new URL(standbyUrl).pathname.slice(1);
    const committed = async () =>
      Number(
        (
          await query<{ n: string }>(
            standbyUrl,
            "SELECT xact_commit::text AS n FROM pg_stat_database WHERE datname = $1",
            [database],
          )
        )[0]?.n ?? 0,
      );
    const before = await committed();
    const reads = 50;
    for (let i = 0; i < reads; i++) {
      const answer = await api.get<{ id: string }>(`${base}/rows/r0`);
      expect(answer.status).toBe(200);
    }
    // The reader holds connections to the standby, by the name it was given, on the scratch database.
    const connections = await query<{ n: number }>(
      standbyUrl,
      "SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1 AND datname = $2",
      [STANDBY_APP, database],
    );
    expect(connections[0]?.n).toBeGreaterThan(0);
    expect((await query<{ r: boolean }>(standbyUrl, "SELECT pg_is_in_recovery() AS r"))[0]?.r).toBe(true);
    // Each read is a transaction there (statistics reach the view within a second or so).
    await expect.poll(committed, { timeout: 10_000, interval: 250 }).toBeGreaterThanOrEqual(before + reads);
  });

  it("lets a caller read its own write 10,000 times in a row, the version it wrote in X-Svc-Min-Version", async () => {
    const workers = 16;
    const total = Number(process.env.SVC_STANDBY_PAIRS ?? 10_000);
    const rounds = Math.ceil(total / workers);
    const readMs: number[] = [];
    const { base, datasetId, rowIds } = await dataset(workers);
    const headers = { authorization: `Bearer ${platform.ownerKey}`, "content-type": "application/json" };
    const missed: string[] = [];
    const acknowledged: { datasetId: string; version: number; versionId: string; rowId: string }[] = [];
    let readsDone = 0;
    const started = Date.now();
    await Promise.all(
      rowIds.map(async (rowId, w) => {
        for (let i = 1; i <= rounds; i++) {
          const value = w * rounds + i;
          const written = await fetch(`${platform.baseUrl}${base}/rows/${rowId}`, {
            method: "PATCH",
            headers,
            body: JSON.stringify({ expectedOutput: { value } }),
          });
          expect(written.status).toBe(200);
          const { version, versionId } = (await written.json()) as { version: number; versionId: string };
          acknowledged.push({ datasetId, version, versionId, rowId });
          const readStarted = Date.now();
          const read = await fetch(`${platform.baseUrl}${base}/rows/${rowId}`, {
            headers: { ...headers, "x-svc-min-version": String(version) },
          });
          readMs.push(Date.now() - readStarted);
          expect(read.status).toBe(200);
          const row = (await read.json()) as { expectedOutput: { value: number } | null; version: number };
          readsDone++;
          if (row.expectedOutput?.value !== value || row.version < version) {
            missed.push(`${rowId}: wrote ${value} at version ${version}, read ${JSON.stringify(row)}`);
          }
        }
      }),
    );
    const seconds = (Date.now() - started) / 1_000;
    console.info(
      `read standby: ${readsDone} writes each read back by ${workers} clients in ${seconds.toFixed(1)} s, ` +
        `reads p50 ${percentile(readMs, 0.5)} / p99 ${percentile(readMs, 0.99)} / max ${percentile(readMs, 1)} ms ` +
        `(${(readsDone / seconds).toFixed(0)} write-read pairs/s); ${missed.length} reads missed their write`,
    );
    expect(readsDone).toBe(workers * rounds);
    expect(missed.slice(0, 5)).toEqual([]);
    await auditVersions(platform.databaseUrl, acknowledged);
    // 20,000 requests: about 30 s on a quiet 2-core machine, several times that beside other test runs.
  }, 300_000);

  it("refuses an X-Svc-Min-Version that is not a version, naming the header", async () => {
    const { api, base } = await dataset(1);
    const answer = await fetch(`${platform.baseUrl}${base}/rows/r0`, {
      headers: { authorization: `Bearer ${platform.ownerKey}`, "x-svc-min-version": "latest" },
    });
    expect(answer.status).toBe(400);
    expect(await answer.json()).toMatchObject({
      code: "validation_failed",
      error: expect.stringContaining("X-Svc-Min-Version"),
    });
    expect((await api.get(`${base}/rows/r0`)).status).toBe(200);
  });
});
