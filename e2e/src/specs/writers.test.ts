import { realInfra } from "@svc/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditVersions } from "../audit";
import { assertAcknowledgedVersionsExist } from "../edit-load";
import { type Client, client } from "../http";
import { holdDatasetLocks } from "../locks";
import { type OtlpReceiver, startOtlpReceiver } from "../otlp-receiver";
import { freePort, type Platform, startPlatform, waitFor, waitReady } from "../platform";

const infra = realInfra();

const WRITERS = 3;
const EDIT_SUBJECT = "svc.v1.datasets.rows.update";
const SERVER = 2;
/** Each replica's name: its `service.instance.id` in telemetry and its PostgreSQL `application_name`. */
const writerName = (index: number) => `dataset-writer-${index}`;

describe.runIf(infra)("dataset-writer replicas on NATS and PostgreSQL", () => {
  let platform: Platform;
  let receiver: OtlpReceiver;
  let api: Client;
  let project: string;

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    const healthPorts = await Promise.all(Array.from({ length: WRITERS }, () => freePort()));
    // The replicas report what they handled through their traces, as they would to any collector (the
    // gateway traces too: a replica's span is the child of the gateway's request), and name their
    // database sessions, so that the test can see which one holds what.
    const tracing = (instance: string) => ({
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
      OTEL_BSP_SCHEDULE_DELAY: "100",
      OTEL_METRICS_EXPORTER: "none",
      OTEL_RESOURCE_ATTRIBUTES: `service.instance.id=${instance}`,
    });
    platform = await startPlatform({
      writers: WRITERS,
      gatewayEnv: { SVC_REQUEST_TIMEOUT_MS: "3000", ...tracing("gateway") },
      writerEnv: (i) => ({
        SVC_HEALTH_PORT: String(healthPorts[i]),
        PGAPPNAME: writerName(i),
        ...tracing(writerName(i)),
      }),
    });
    // Every replica has subscribed before any load: each one's readiness turns true only after that.
    await Promise.all(healthPorts.map((port) => waitReady(`http://127.0.0.1:${port}`)));
    api = client(platform.baseUrl, platform.ownerKey);
    project = (await api.post<{ slug: string }>("/v1/projects", { name: "Replicas" })).body.slug;
  });
  afterAll(async () => {
    await platform?.stop();
    await receiver?.close();
  });

  async function makeDataset(name: string, rows: string[]) {
    const created = await api.post<{ id: string; slug: string }>(`/v1/projects/${project}/datasets`, {
      name,
    });
    const base = `/v1/projects/${project}/datasets/${created.body.slug}`;
    const inserted = await api.post(`${base}/rows`, { rows: rows.map((id) => ({ id, input: id })) });
    expect(inserted.status).toBe(201);
    return { base, datasetId: created.body.id };
  }

  /** Which replica handled each of the requests whose id starts with `prefix`, from the replicas' spans. */
  async function handledBy(prefix: string, count: number): Promise<Map<string, number>> {
    const spans = await waitFor(
      `the replicas' spans of ${count} edits`,
      async () => {
        const found = receiver.spans.filter(
          (span) =>
            span.service === "dataset-writer" &&
            span.kind === SERVER &&
            span.name === `process ${EDIT_SUBJECT}` &&
            String(span.attributes["svc.request_id"]).startsWith(prefix),
        );
        return found.length >= count ? found : undefined;
      },
      20_000,
    );
    expect(spans).toHaveLength(count);
    expect(new Set(spans.map((span) => span.attributes["svc.request_id"])).size).toBe(count);
    const perWriter = new Map<string, number>();
    for (const span of spans) perWriter.set(span.instance, (perWriter.get(span.instance) ?? 0) + 1);
    return perWriter;
  }

  it("keeps all 200 concurrent edits of different custom cells of one row, versions exactly 1..201, shared by all 3 replicas", async () => {
    const { base } = await makeDataset("Concurrent", ["hot"]);
    const columns: string[] = [];
    for (let i = 0; i < 200; i++) {
      const column = await api.post<{ identifier: string }>(`${base}/columns`, { name: `c${i}` });
      columns.push(column.body.identifier);
    }
    const replies = await Promise.all(
      columns.map((column, i) =>
        api.patch<{ version: number }>(
          `${base}/rows/hot`,
          { custom: { [column]: i } },
          { "x-request-id": `concurrent-${i}` },
        ),
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

    // Each edit was handled once, and every replica took a real share (a third each is ~67 ± 7).
    const perWriter = await handledBy("concurrent-", 200);
    console.info(`edits per replica: ${JSON.stringify(Object.fromEntries(perWriter))}`);
    expect([...perWriter.keys()].sort()).toEqual(Array.from({ length: WRITERS }, (_, i) => writerName(i)));
    for (const handled of perWriter.values()) expect(handled).toBeGreaterThanOrEqual(20);
  });

  it("loses no acknowledged edit and half-makes no version when a writer is killed with edits in flight, and the failed ones can be retried", async () => {
    const rows = Array.from({ length: 300 }, (_, i) => `r${i}`);
    const { base, datasetId } = await makeDataset("Killed", rows);
    const acknowledged = new Map<string, { versionId: string; version: number }>();
    const failed: string[] = [];
    // One key per edit, so that a retry is the same request: answered once, whatever happened to the first.
    const keyOf = (rowId: string) => `killed-${datasetId}-${rowId}`;
    const edit = (rowId: string) =>
      api.patch<{ versionId: string; version: number }>(
        `${base}/rows/${rowId}`,
        { expectedOutput: { i: rows.indexOf(rowId) } },
        { "idempotency-key": keyOf(rowId) },
      );
    let next = 0;
    const worker = async () => {
      for (let i = next++; i < rows.length; i = next++) {
        const rowId = rows[i] as string;
        const reply = await edit(rowId);
        if (reply.status === 200) acknowledged.set(rowId, reply.body);
        else {
          // Only if the test's locks outlast the request timeout: the gateway sends the victim's edits
          // to another replica, under their keys, and those are answered.
          expect([503, 504]).toContain(reply.status);
          failed.push(rowId);
        }
      }
    };
    const stream = Promise.all(Array.from({ length: 8 }, worker));
    await waitFor("some edits", async () => (acknowledged.size > 40 ? true : undefined));

    // Edits now wait on the dataset's lock inside the replicas; the victim is killed holding some.
    const victimName = writerName(0);
    const locks = await holdDatasetLocks(platform.databaseUrl, [datasetId]);
    let inFlightOnVictim = 0;
    try {
      inFlightOnVictim = await waitFor(`edits in flight on ${victimName}`, async () => {
        const waiting = await locks.waiting(victimName);
        return waiting > 0 ? waiting : undefined;
      });
      const victim = platform.processes.filter((p) => p.name === "dataset-writer")[0];
      victim?.child.kill("SIGKILL");
      await victim?.exited;
      expect(victim?.child.signalCode).toBe("SIGKILL");
    } finally {
      await locks.release();
    }
    await stream;

    console.info(
      `killed ${victimName} with ${inFlightOnVictim} edit transaction(s) waiting in it; ${failed.length} edits failed, ${acknowledged.size} acknowledged`,
    );
    // The victim's edits were in flight when it died: its waiting transactions were rolled back, and
    // the gateway sent each edit again to a live replica (docs/decisions/0033).
    expect(inFlightOnVictim).toBeGreaterThan(0);
    expect(acknowledged.size).toBeGreaterThan(40);
    await assertAcknowledgedVersionsExist(
      platform.databaseUrl,
      [...acknowledged.values()].map((ack) => ({ datasetId, ...ack })),
    );

    for (const rowId of failed) {
      const retry = await edit(rowId);
      expect(retry.status).toBe(200);
      acknowledged.set(rowId, retry.body);
    }
    expect(acknowledged.size).toBe(rows.length);
    await assertAcknowledgedVersionsExist(
      platform.databaseUrl,
      [...acknowledged.values()].map((ack) => ({ datasetId, ...ack })),
    );
    const all = await api.get<{ items: { rowId: string; expectedOutput: { i: number } }[] }>(
      `${base}/rows?limit=200`,
    );
    const more = await api.get<{ items: { rowId: string; expectedOutput: { i: number } }[] }>(
      `${base}/rows?limit=200&sortDirection=asc`,
    );
    const seen = new Map([...all.body.items, ...more.body.items].map((r) => [r.rowId, r.expectedOutput]));
    for (const rowId of rows) expect(seen.get(rowId)).toEqual({ i: rows.indexOf(rowId) });
    // One version per row: the edits and the insert, no duplicate from a retry.
    expect((await api.get<{ version: number }>(base)).body.version).toBe(rows.length + 1);
    await auditVersions(platform.databaseUrl);
  });
});
