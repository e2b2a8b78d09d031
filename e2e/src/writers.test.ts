import { realInfra } from "@svc/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditVersions } from "./audit";
import { type Client, client } from "./http";
import { type Platform, startPlatform, waitFor } from "./platform";

const infra = realInfra();

describe.runIf(infra)("dataset-writer replicas on NATS and PostgreSQL", () => {
  let platform: Platform;
  let api: Client;
  let project: string;

  beforeAll(async () => {
    platform = await startPlatform({ writers: 3, gatewayEnv: { SVC_REQUEST_TIMEOUT_MS: "3000" } });
    api = client(platform.baseUrl, platform.ownerKey);
    project = (await api.post<{ slug: string }>("/v1/projects", { name: "Replicas" })).body.slug;
  });
  afterAll(async () => {
    await platform?.stop();
  });

  async function makeDataset(name: string, rows: string[]) {
    const created = await api.post<{ slug: string }>(`/v1/projects/${project}/datasets`, { name });
    const base = `/v1/projects/${project}/datasets/${created.body.slug}`;
    const inserted = await api.post(`${base}/rows`, { rows: rows.map((id) => ({ id, input: id })) });
    expect(inserted.status).toBe(201);
    return base;
  }

  it("keeps all 200 concurrent edits of different custom cells of one row, versions exactly 1..201", async () => {
    const base = await makeDataset("Concurrent", ["hot"]);
    const columns: string[] = [];
    for (let i = 0; i < 200; i++) {
      const column = await api.post<{ identifier: string }>(`${base}/columns`, { name: `c${i}` });
      columns.push(column.body.identifier);
    }
    const replies = await Promise.all(
      columns.map((column, i) =>
        api.patch<{ version: number }>(`${base}/rows/hot`, { custom: { [column]: i } }),
      ),
    );
    expect(replies.map((r) => r.status)).toEqual(columns.map(() => 200));
    expect(replies.map((r) => r.body.version).sort((a, b) => a - b)).toEqual(columns.map((_, i) => i + 2));
    const row = await api.get<{ custom: Record<string, number>; version: number }>(`${base}/rows/hot`);
    expect(row.body.custom).toEqual(Object.fromEntries(columns.map((c, i) => [c, i])));
    expect(row.body.version).toBe(201);
    const versions = await api.get<{ items: { version: number }[] }>(`${base}/versions?limit=200`);
    expect(versions.body.items[0]?.version).toBe(201);
    await auditVersions(platform.databaseUrl);
  });

  it("loses no acknowledged edit and half-makes no version when a writer is killed mid-stream", async () => {
    const rows = Array.from({ length: 300 }, (_, i) => `r${i}`);
    const base = await makeDataset("Killed", rows);
    const acknowledged = new Map<string, number>();
    const failed: string[] = [];
    let next = 0;
    const worker = async () => {
      for (let i = next++; i < rows.length; i = next++) {
        const rowId = rows[i] as string;
        const reply = await api.patch<{ version: number }>(`${base}/rows/${rowId}`, {
          expectedOutput: { i },
        });
        if (reply.status === 200) acknowledged.set(rowId, reply.body.version);
        else {
          expect([503, 504]).toContain(reply.status);
          failed.push(rowId);
        }
      }
    };
    const stream = Promise.all(Array.from({ length: 8 }, worker));
    await waitFor("some edits", async () => (acknowledged.size > 40 ? true : undefined));
    const victim = platform.processes.find((p) => p.name === "dataset-writer" && p.child.exitCode === null);
    expect(victim).toBeDefined();
    victim?.child.kill("SIGKILL");
    await stream;
    await victim?.exited;
    expect(victim?.child.signalCode).toBe("SIGKILL");
    expect(acknowledged.size).toBeGreaterThan(40);

    for (const rowId of failed) {
      const retry = await api.patch<{ version: number }>(`${base}/rows/${rowId}`, {
        expectedOutput: { i: rows.indexOf(rowId) },
      });
      expect(retry.status).toBe(200);
      acknowledged.set(rowId, retry.body.version);
    }
    const all = await api.get<{ items: { rowId: string; expectedOutput: { i: number } }[] }>(
      `${base}/rows?limit=200`,
    );
    const more = await api.get<{ items: { rowId: string; expectedOutput: { i: number } }[] }>(
      `${base}/rows?limit=200&sortDirection=asc`,
    );
    const seen = new Map([...all.body.items, ...more.body.items].map((r) => [r.rowId, r.expectedOutput]));
    for (const rowId of rows) expect(seen.get(rowId)).toEqual({ i: rows.indexOf(rowId) });
    await auditVersions(platform.databaseUrl);
  });
});
