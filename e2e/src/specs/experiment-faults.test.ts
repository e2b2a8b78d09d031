import { randomUUID } from "node:crypto";
import { realInfra } from "@svc/testing";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client } from "../http";
import { freePort, type Platform, startPlatform, waitFor, waitReady } from "../platform";

const infra = realInfra();
const ROWS = 1_200;
const BATCH = 100;
const REQUEST_TIMEOUT_MS = 4_000;

/** A replica's PostgreSQL application_name, to see which one holds which batches. */
const replicaName = (index: number) => `experiments-${index}`;

describe.runIf(infra)("an experiments replica killed while recording results", () => {
  let platform: Platform;
  beforeAll(async () => {
    const healthPorts = [await freePort(), await freePort()];
    platform = await startPlatform({
      gatewayEnv: { SVC_REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS) },
      env: { PGAPPNAME: "platform" },
    });
    // The platform's own replica is stopped and two named ones take its place, so that the test
    // knows which one it kills.
    const first = platform.processes.find((p) => p.name === "experiments");
    first?.child.kill("SIGTERM");
    await first?.exited;
    for (const [i, port] of healthPorts.entries()) {
      await platform.start("experiments", { PGAPPNAME: replicaName(i), SVC_HEALTH_PORT: String(port) });
    }
    await Promise.all(healthPorts.map((port) => waitReady(`http://127.0.0.1:${port}`)));
  });
  afterAll(async () => {
    await platform?.stop();
  });

  it("loses no acknowledged batch, and a batch retried with its key is recorded once", async () => {
    const api = client(platform.baseUrl, platform.ownerKey);
    const project = (await api.post<{ slug: string }>("/v1/projects", { name: "Faults" })).body.slug;
    const dataset = (await api.post<{ slug: string }>(`/v1/projects/${project}/datasets`, { name: "QA" }))
      .body.slug;
    for (let from = 0; from < ROWS; from += 1_000) {
      const inserted = await api.post(`/v1/projects/${project}/datasets/${dataset}/rows`, {
        rows: Array.from({ length: Math.min(1_000, ROWS - from) }, (_, i) => ({
          id: `r${String(from + i).padStart(5, "0")}`,
          input: { n: from + i },
          expectedOutput: String(from + i),
        })),
      });
      expect(inserted.status).toBe(201);
    }
    const experiment = (
      await api.post<{ id: string }>(`/v1/projects/${project}/datasets/${dataset}/experiments`, {
        name: "under fault",
        evaluators: [{ name: "exact", kind: "exact_match" }],
      })
    ).body;
    expect(experiment.id).toBeTruthy();
    const resultsPath = `/v1/projects/${project}/experiments/${experiment.id}/results`;

    // Every batch of results waits inside a replica on the experiment's row, held by the test.
    const lock = new pg.Client({ connectionString: platform.databaseUrl });
    await lock.connect();
    await lock.query("BEGIN");
    await lock.query("SELECT id FROM experiments WHERE id = $1 FOR UPDATE", [experiment.id]);
    const waitingIn = async (name: string) =>
      (
        await lock.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM pg_stat_activity
           WHERE datname = current_database() AND application_name = $1 AND wait_event_type = 'Lock'`,
          [name],
        )
      ).rows[0]?.n ?? 0;

    // Each batch is sent until it is acknowledged, always with its own Idempotency-Key.
    const answers: { batch: number; status: number }[] = [];
    const batches = Array.from({ length: ROWS / BATCH }, (_, b) => ({
      key: randomUUID(),
      results: Array.from({ length: BATCH }, (_, i) => {
        const n = b * BATCH + i;
        return { rowId: `r${String(n).padStart(5, "0")}`, output: n % 7 === 0 ? "wrong" : String(n) };
      }),
    }));
    const send = async (b: number) => {
      const batch = batches[b] as (typeof batches)[number];
      for (let attempt = 0; attempt < 20; attempt++) {
        const answer = await api.post<{ recorded: number }>(
          resultsPath,
          { results: batch.results },
          { "idempotency-key": batch.key },
        );
        answers.push({ batch: b, status: answer.status });
        if (answer.status === 200) return answer.body.recorded;
        await new Promise((resolve) => setTimeout(resolve, 100 * (attempt + 1)));
      }
      throw new Error(`batch ${b} was never acknowledged`);
    };
    const sending = Promise.all(batches.map((_, b) => send(b)));

    let inFlightOnVictim = 0;
    const victim = platform.processes.find((p) => p.name === "experiments" && p.child.exitCode === null);
    try {
      inFlightOnVictim = await waitFor("batches in flight on the first replica", async () => {
        const waiting = await waitingIn(replicaName(0));
        return waiting > 0 ? waiting : undefined;
      });
      victim?.child.kill("SIGKILL");
      await victim?.exited;
    } finally {
      await lock.query("COMMIT");
      await lock.end();
    }
    const recorded = await sending;
    expect(victim?.child.signalCode).toBe("SIGKILL");
    expect(recorded.every((n) => n === BATCH)).toBe(true);
    const refused = answers.filter((answer) => answer.status !== 200);
    console.info(
      `killed with ${inFlightOnVictim} batch(es) waiting in it; ${refused.length} answers were refusals ` +
        `(${[...new Set(refused.map((answer) => answer.status))].join(", ")}), every batch acknowledged in the end`,
    );
    // The refusals are the retryable kinds: nothing else reached the client.
    expect(refused.every((answer) => [503, 504].includes(answer.status))).toBe(true);

    // Every acknowledged result is there, once, scored by the rule; a replay of a batch changes nothing.
    const totals = await api.get<{
      results: number;
      errors: number;
      scores: Record<string, { count: number; mean: number }>;
    }>(`/v1/projects/${project}/experiments/${experiment.id}`);
    expect(totals.body).toMatchObject({ results: ROWS, errors: 0 });
    const wrong = batches
      .flatMap((batch) => batch.results)
      .filter((result) => result.output === "wrong").length;
    expect(totals.body.scores.exact?.count).toBe(ROWS);
    expect(totals.body.scores.exact?.mean).toBeCloseTo((ROWS - wrong) / ROWS, 9);
    const replay = await api.post<{ recorded: number }>(
      resultsPath,
      { results: batches[0]?.results },
      { "idempotency-key": batches[0]?.key as string },
    );
    expect(replay).toMatchObject({ status: 200, body: { recorded: BATCH } });
    const stored = await new pg.Client({ connectionString: platform.databaseUrl });
    await stored.connect();
    try {
      const rows = await stored.query<{ n: number; outputs: number }>(
        `SELECT count(*)::int AS n, count(DISTINCT row_id)::int AS outputs FROM experiment_results WHERE experiment_id = $1`,
        [experiment.id],
      );
      expect(rows.rows[0]).toEqual({ n: ROWS, outputs: ROWS });
      const mismatched = await stored.query(
        `SELECT row_id FROM experiment_results
         WHERE experiment_id = $1 AND output <> to_jsonb(CASE WHEN substr(row_id, 2)::int % 7 = 0 THEN 'wrong' ELSE substr(row_id, 2)::int::text END)`,
        [experiment.id],
      );
      expect(mismatched.rows).toEqual([]);
    } finally {
      await stored.end();
    }
  });
});
