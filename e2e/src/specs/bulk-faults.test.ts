import { request as httpRequest } from "node:http";
import { realInfra } from "@svc/testing";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AcknowledgedChange, auditVersions } from "../audit";
import { client } from "../http";
import { PrivateNats } from "../nats-server";
import { type Platform, startedForSuite, startPlatform, waitFor } from "../platform";

const infra = realInfra();

/**
 * A project and a dataset of `rows` rows `b0000…`, each with an input of about `size` characters, and
 * the insertions the platform acknowledged.
 */
async function datasetOf(platform: Platform, name: string, rows: number, size: number) {
  const api = client(platform.baseUrl, platform.ownerKey);
  const project = (await api.post<{ slug: string }>("/v1/projects", { name: `${name} ${Date.now()}` })).body
    .slug;
  const dataset = await api.post<{ slug: string; id: string }>(`/v1/projects/${project}/datasets`, { name });
  const base = `/v1/projects/${project}/datasets/${dataset.body.slug}`;
  const datasetId = dataset.body.id;
  const acknowledged: AcknowledgedChange[] = [];
  // Pages of at most 1,000 rows and about 400 kB, well under the body limit.
  const pageSize = Math.min(1_000, Math.floor(400_000 / size));
  for (let from = 0; from < rows; from += pageSize) {
    const page = Array.from({ length: Math.min(pageSize, rows - from) }, (_, i) => ({
      id: `b${String(from + i).padStart(5, "0")}`,
      input: { text: "x".repeat(size) },
    }));
    const inserted = await api.post<{ versionId: string; version: number }>(`${base}/rows`, { rows: page });
    expect(inserted.status).toBe(201);
    const { versionId, version } = inserted.body;
    acknowledged.push(...page.map((row) => ({ datasetId, version, versionId, rowId: row.id })));
  }
  return { api, base, datasetId, acknowledged };
}

/** The dataset's version and how many of its rows hold `value` in their expected output. */
async function stateOf(databaseUrl: string, datasetId: string, value: string) {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const found = await db.query<{ version: number; changed: number }>(
      `SELECT d.current_version AS version,
              (SELECT count(*)::int FROM dataset_rows r
                WHERE r.dataset_id = d.id AND r.expected_output->>'value' = $2) AS changed
         FROM datasets d WHERE d.id = $1`,
      [datasetId, value],
    );
    const row = found.rows[0];
    return { version: Number(row?.version), changed: Number(row?.changed) };
  } finally {
    await db.end();
  }
}

describe.runIf(infra)("a batch edit with its writer SIGKILLed (distributed)", () => {
  const platform = startedForSuite(() => startPlatform({ writers: 1 }));

  it("applies all 1,000 edits as one version or none, and the retry with its key applies them once", async () => {
    const rows = 1_000;
    const { base, datasetId, acknowledged } = await datasetOf(platform, "Killed batch", rows, 200);
    // The kill lands at another moment of the batch each round: before it starts, during its
    // transaction, or after its commit and before the answer.
    for (const [round, delayMs] of [5, 30, 60, 120].entries()) {
      const value = `round ${round}`;
      const before = (await stateOf(platform.databaseUrl, datasetId, value)).version;
      const edits = Array.from({ length: rows }, (_, i) => ({
        rowId: `b${String(i).padStart(5, "0")}`,
        expectedOutput: { value, i },
      }));
      const key = `batch-kill-${round}-${Date.now()}`;
      const send = () =>
        fetch(`${platform.baseUrl}${base}/rows`, {
          method: "PATCH",
          headers: {
            authorization: `Bearer ${platform.ownerKey}`,
            "content-type": "application/json",
            "idempotency-key": key,
          },
          body: JSON.stringify({ edits }),
        }).then(async (response) => ({ status: response.status, body: await response.json() }));

      const first = send();
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      const victim = platform.processes.find((p) => p.name === "dataset-writer" && p.child.exitCode === null);
      victim?.child.kill("SIGKILL");
      await victim?.exited;
      const answered = await first;
      // Whatever the first attempt was told, the dataset holds the batch whole or not at all.
      const afterKill = await stateOf(platform.databaseUrl, datasetId, value);
      expect([before, before + 1], `round ${round}: version after the kill`).toContain(afterKill.version);
      expect(afterKill.changed, `round ${round}: rows changed after the kill`).toBe(
        afterKill.version > before ? rows : 0,
      );

      await platform.start("dataset-writer");
      const retried = await waitFor(
        `round ${round}: the retry to be answered by the new writer`,
        async () => {
          const answer = await send();
          return answer.status === 503 || answer.status === 504 ? undefined : answer;
        },
        30_000,
      );
      expect(retried.status, `round ${round}: first answered ${answered.status}`).toBe(200);
      if (answered.status === 200) expect(retried.body).toEqual(answered.body);
      const { versionId, version } = retried.body as { versionId: string; version: number };
      acknowledged.push(
        ...edits.map(({ rowId, expectedOutput }) => ({
          datasetId,
          version,
          versionId,
          rowId,
          expectedOutput,
        })),
      );
      expect(await stateOf(platform.databaseUrl, datasetId, value)).toEqual({
        version: before + 1,
        changed: rows,
      });
    }
    await auditVersions(platform.databaseUrl, acknowledged);
  });
});

describe.runIf(infra)("an export with NATS killed part-way (distributed)", () => {
  let platform: Platform;
  let nats: PrivateNats;
  beforeAll(async () => {
    nats = await PrivateNats.start();
    platform = await startPlatform({ natsUrl: nats.url });
  });
  afterAll(async () => {
    await platform?.stop();
    await nats?.stop();
  });

  /** GETs `path`, reading a chunk every `pauseMs`; resolves with what arrived and how it ended. */
  function slowDownload(path: string, pauseMs: number, onFirstChunk: () => void) {
    return new Promise<{ status: number; bytes: number; complete: boolean; error?: string }>((resolve) => {
      const url = new URL(path, platform.baseUrl);
      let bytes = 0;
      let status = 0;
      const req = httpRequest(url, { headers: { authorization: `Bearer ${platform.ownerKey}` } }, (res) => {
        status = res.statusCode ?? 0;
        res.on("data", (chunk: Buffer) => {
          if (bytes === 0) onFirstChunk();
          bytes += chunk.length;
          res.pause();
          setTimeout(() => res.resume(), pauseMs);
        });
        res.on("end", () => resolve({ status, bytes, complete: res.complete }));
        res.on("error", (error) => resolve({ status, bytes, complete: res.complete, error: error.message }));
        res.on("aborted", () => resolve({ status, bytes, complete: false, error: "aborted" }));
      });
      req.on("error", (error) => resolve({ status, bytes, complete: false, error: error.message }));
      req.end();
    });
  }

  it("ends the transfer without its last chunk, so the client sees an incomplete file, and exports whole again after", async () => {
    const rows = 6_000;
    const { base, acknowledged } = await datasetOf(platform, "Cut export", rows, 2_000);
    const whole = await slowDownload(`${base}/export?format=jsonl`, 0, () => undefined);
    expect(whole).toMatchObject({ status: 200, complete: true });
    expect(whole.bytes).toBeGreaterThan(rows * 2_000);

    let started: () => void = () => undefined;
    const firstChunk = new Promise<void>((resolve) => {
      started = resolve;
    });
    const cut = slowDownload(`${base}/export?format=jsonl`, 25, () => started());
    await firstChunk;
    await nats.kill();
    const outcome = await cut;
    await nats.restart();

    expect(outcome.status).toBe(200);
    expect(outcome.complete, JSON.stringify(outcome)).toBe(false);
    expect(outcome.bytes).toBeLessThan(whole.bytes);

    const again = await waitFor(
      "a whole export after NATS returned",
      async () => {
        const answer = await slowDownload(`${base}/export?format=jsonl`, 0, () => undefined);
        return answer.status === 200 && answer.complete ? answer : undefined;
      },
      20_000,
    );
    expect(again.bytes).toBe(whole.bytes);
    await auditVersions(platform.databaseUrl, acknowledged);
  });
});
