import { randomBytes } from "node:crypto";
import { createScratchDatabase } from "@svc/db/testing";
import { realInfra } from "@svc/testing";
import pg from "pg";
import { beforeAll, describe, expect, it } from "vitest";
import { type EditTarget, makeEditTargets } from "../edit-load";
import { type Client, client } from "../http";
import { PrivateNats, privateNatsAvailable } from "../nats-server";
import {
  entryOf,
  freePort,
  type Platform,
  type RunningProcess,
  type ServiceName,
  spawnNode,
  startedForSuite,
  startPlatform,
  waitFor,
  waitReady,
} from "../platform";
import { TcpProxy } from "../tcp-proxy";

const infra = realInfra();
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function running(platform: Platform, name: ServiceName): RunningProcess {
  const found = platform.processes.find((p) => p.name === name && p.child.exitCode === null);
  if (!found) throw new Error(`no ${name} is running`);
  return found;
}

describe.runIf(infra)("graceful shutdown", () => {
  const platform = startedForSuite(() => startPlatform({ gatewayEnv: { SVC_DRAIN_DELAY_MS: "3000" } }));
  let api: Client;
  let rows: EditTarget[];

  beforeAll(async () => {
    api = client(platform.baseUrl, platform.ownerKey);
    const project = await api.post<{ slug: string }>("/v1/projects", { name: "Lifecycle" });
    rows = (await makeEditTargets(api, project.body.slug, { datasets: 2, rows: 2, workers: 1 })).flat();
  });

  it("gateway: on SIGTERM readiness turns false first, the request in flight completes, then it exits 0", async () => {
    const target = rows[0] as EditTarget;
    const gateway = running(platform, "gateway");
    const reader = running(platform, "reader");
    // A paused reader keeps a request in flight at the gateway for as long as the test wants (and
    // makes /readyz wait a second for its ping, well inside the drain delay).
    reader.child.kill("SIGSTOP");
    const inFlight = api.get<{ rowId: string }>(`${target.base}/rows/${target.rowId}`);
    await pause(300);
    gateway.child.kill("SIGTERM");
    await pause(200);

    const readyz = await fetch(`${platform.baseUrl}/readyz`);
    expect(readyz.status).toBe(503);
    expect(await readyz.json()).toMatchObject({ status: "draining" });
    expect((await fetch(`${platform.baseUrl}/healthz`)).status).toBe(200);
    expect(gateway.child.exitCode).toBeNull();

    reader.child.kill("SIGCONT");
    const answer = await inFlight;
    expect(answer.status).toBe(200);
    expect(answer.body.rowId).toBe(target.rowId);
    expect(await gateway.exited).toBe(0);
    await expect(fetch(`${platform.baseUrl}/healthz`)).rejects.toThrow();

    const replacement = await platform.startGateway();
    api = client(replacement, platform.ownerKey);
    expect((await api.get(`${target.base}/rows/${target.rowId}`)).status).toBe(200);
  });

  it("service: on SIGTERM it takes no new request, finishes the one in flight, then exits 0", async () => {
    const [locked, other] = rows as [EditTarget, EditTarget, ...EditTarget[]];
    const writer = running(platform, "dataset-writer");
    // A row lock held by the test keeps the writer's edit in flight until the test lets go.
    const db = new pg.Client({ connectionString: platform.databaseUrl });
    await db.connect();
    try {
      await db.query("BEGIN");
      await db.query("SELECT id FROM datasets WHERE id = $1 FOR UPDATE", [locked.datasetId]);
      const inFlight = api.patch<{ version: number }>(`${locked.base}/rows/${locked.rowId}`, {
        expectedOutput: { value: 1 },
      });
      await waitFor("the edit to wait on the lock", async () => {
        const waiting = await db.query(
          "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
        );
        return waiting.rows[0].n > 0 ? true : undefined;
      });
      writer.child.kill("SIGTERM");
      await pause(500);
      expect(writer.child.exitCode).toBeNull();

      // Its subscriptions are drained: nobody serves edits now, so a new one is refused at once.
      const refused = await api.patch(`${other.base}/rows/${other.rowId}`, { expectedOutput: { value: 2 } });
      expect(refused.status).toBe(503);
      expect(refused.body).toMatchObject({ code: "service_unavailable" });

      await db.query("COMMIT");
      const answer = await inFlight;
      expect(answer.status).toBe(200);
      expect(answer.body.version).toBeGreaterThan(0);
    } finally {
      await db.end();
    }
    expect(await writer.exited).toBe(0);

    await platform.start("dataset-writer");
    await waitFor("a new writer", async () => {
      const edit = await api.patch(`${other.base}/rows/${other.rowId}`, { expectedOutput: { value: 3 } });
      return edit.status === 200 ? true : undefined;
    });
  });
});

describe.runIf(privateNatsAvailable() && infra)("start-up", () => {
  it("every process started before NATS and PostgreSQL are reachable waits, then becomes ready, then stops with 0", async () => {
    if (!infra) return;
    const scratch = await createScratchDatabase(infra.databaseUrl, "e2e");
    const database = new URL(infra.databaseUrl);
    const proxy = await TcpProxy.start({ host: database.hostname, port: Number(database.port || 5432) });
    await proxy.cut();
    const nats = await PrivateNats.create();
    const healthPort = await freePort();
    const gatewayPort = await freePort();
    const env = {
      DATABASE_URL: proxy.urlFor(scratch.url),
      NATS_URL: nats.url,
      SVC_BUS_PREFIX: `up${randomBytes(4).toString("hex")}`,
      LOG_LEVEL: "warn",
    };
    const processes = [
      spawnNode("auth", entryOf("auth"), env),
      spawnNode("dataset-writer", entryOf("dataset-writer"), env),
      spawnNode("reader", entryOf("reader"), { ...env, SVC_HEALTH_PORT: String(healthPort) }),
      spawnNode("trace-ingest", entryOf("trace-ingest"), env),
      spawnNode("experiments", entryOf("experiments"), env),
      spawnNode("gateway", entryOf("gateway"), { ...env, PORT: String(gatewayPort) }),
    ];
    const probe = (path: string) => fetch(`http://127.0.0.1:${healthPort}${path}`);
    try {
      await waitFor("the reader's probes", async () =>
        (await probe("/healthz")).status === 200 ? true : undefined,
      );
      await pause(2_000);
      expect(processes.filter((p) => p.child.exitCode !== null).map((p) => p.name)).toEqual([]);
      const starting = await probe("/readyz");
      expect(starting.status).toBe(503);
      expect(await starting.json()).toEqual({ status: "starting" });

      await proxy.restore();
      await nats.restart();
      await waitReady(`http://127.0.0.1:${gatewayPort}`, 30_000);
      expect((await probe("/readyz")).status).toBe(200);
    } finally {
      for (const p of processes) p.child.kill("SIGTERM");
      const codes = await Promise.all(processes.map((p) => p.exited));
      await nats.stop();
      await proxy.close();
      await scratch.drop();
      expect(codes).toEqual([0, 0, 0, 0, 0, 0]);
    }
  });
});
