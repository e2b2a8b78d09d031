import { realInfra } from "@svc/testing";
import { createOrganization } from "@svc/testing/platform";
import { describe, expect, it } from "vitest";
import { openStream } from "../event-stream";
import { makeDataset, makeProject } from "../factories";
import { client } from "../http";
import { startedForSuite, startPlatform } from "../platform";

/** The distributed platform with two gateways, each with a small stream cap and quick keep-alives. */
async function startWithTwoStreamingGateways() {
  const platform = await startPlatform({
    gatewayEnv: { SVC_GATEWAY_STREAMS_PER_KEY: "3", SVC_GATEWAY_STREAM_KEEPALIVE_MS: "300" },
  });
  try {
    return { ...platform, second: await platform.startGateway() };
  } catch (error) {
    await platform.stop();
    throw error;
  }
}

describe.runIf(realInfra())("live changes across two gateways", () => {
  const platform = startedForSuite(startWithTwoStreamingGateways);

  async function dataset(rows = 2) {
    const owner = client(platform.baseUrl, platform.ownerKey);
    const project = await makeProject(owner);
    return makeDataset(owner, project, { rows });
  }

  it("streams an edit made through one gateway to a client of the other, as it happens", async () => {
    const { base } = await dataset();
    const stream = await openStream(platform.baseUrl, platform.ownerKey, `${base}/events`);
    expect(stream.status).toBe(200);
    expect(stream.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    expect(stream.headers.get("x-request-id")).toBeTruthy();

    const elsewhere = client(platform.second, platform.ownerKey);
    const edit = await elsewhere.patch<{ version: number; versionId: string }>(`${base}/rows/r1`, {
      output: "changed",
    });
    expect(edit.status).toBe(200);
    const [event] = await stream.waitForEvents(1);
    stream.close();

    expect(event).toMatchObject({
      id: "2",
      event: "version",
      data: {
        version: 2,
        versionId: edit.body.versionId,
        operation: "update",
        rowsInserted: 0,
        rowsUpdated: 1,
        rowsDeleted: 0,
        rowIds: ["r1"],
        rowIdsTruncated: false,
        actor: { kind: "apiKey" },
      },
    });
  });

  it("replays exactly the versions missed while disconnected, then goes on live", async () => {
    const { base } = await dataset();
    const owner = client(platform.baseUrl, platform.ownerKey);
    const first = await openStream(platform.second, platform.ownerKey, `${base}/events`);
    expect((await owner.patch(`${base}/rows/r0`, { output: "a" })).status).toBe(200);
    const [seen] = await first.waitForEvents(1);
    first.close();
    await first.ended;

    // Missed while away: an edit, an insert of 150 rows and a deletion.
    expect((await owner.patch(`${base}/rows/r1`, { output: "b" })).status).toBe(200);
    const bulk = Array.from({ length: 150 }, (_, i) => ({
      id: `bulk${String(i).padStart(3, "0")}`,
      input: i,
    }));
    expect((await owner.post(`${base}/rows`, { rows: bulk })).status).toBe(201);
    expect(
      (await owner.delete(`${base}/rows`, { selection: { mode: "selected", rowIds: ["r0"] } })).status,
    ).toBe(200);

    const again = await openStream(platform.baseUrl, platform.ownerKey, `${base}/events`, {
      "last-event-id": String(seen?.id),
    });
    const replayed = await again.waitForEvents(3);
    expect(replayed.map((event) => [event.id, event.data.operation])).toEqual([
      ["3", "update"],
      ["4", "insert"],
      ["5", "delete"],
    ]);
    expect(replayed[1]?.data).toMatchObject({ rowsInserted: 150, rowIdsTruncated: true });
    expect(replayed[1]?.data.rowIds).toHaveLength(100);
    expect(replayed[2]?.data).toMatchObject({ rowIds: ["r0"], rowIdsTruncated: false });

    expect((await owner.patch(`${base}/rows/r1`, { output: "c" })).status).toBe(200);
    const all = await again.waitForEvents(4);
    again.close();
    expect(all.map((event) => Number(event.id))).toEqual([3, 4, 5, 6]);
    // ?since= does what Last-Event-ID does, for clients that cannot set headers.
    const since = await openStream(platform.second, platform.ownerKey, `${base}/events?since=5`);
    expect((await since.waitForEvents(1))[0]?.id).toBe("6");
    since.close();
  });

  it("keeps a quiet stream open with comment lines", async () => {
    const { base } = await dataset(0);
    const stream = await openStream(platform.baseUrl, platform.ownerKey, `${base}/events`);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    stream.close();
    expect(stream.comments.length).toBeGreaterThanOrEqual(2);
    expect(stream.events).toEqual([]);
  });

  it("answers 404 to a key of another organisation, and streams to a viewer of the same", async () => {
    const { base } = await dataset();
    const strangerOwner = await createOrganization(platform.baseUrl, platform.adminToken);
    const strangerViewer = await client(platform.baseUrl, strangerOwner).post<{ token: string }>(
      "/v1/api-keys",
      { name: "viewer", role: "viewer" },
    );
    const stranger = await openStream(platform.second, strangerViewer.body.token, `${base}/events`);
    expect(stranger.status).toBe(404);
    expect(stranger.error).toMatchObject({ code: "not_found" });

    const viewer = await client(platform.baseUrl, platform.ownerKey).post<{ token: string }>("/v1/api-keys", {
      name: "viewer",
      role: "viewer",
    });
    const stream = await openStream(platform.second, viewer.body.token, `${base}/events`);
    expect(stream.status).toBe(200);
    stream.close();
    const beyond = await openStream(platform.second, viewer.body.token, `${base}/events`, {
      "last-event-id": "99",
    });
    expect(beyond.status).toBe(400);
  });

  it("caps a key's open streams on a gateway with 429, and takes one again once one closes", async () => {
    const { base } = await dataset();
    const key = await client(platform.baseUrl, platform.ownerKey).post<{ token: string }>("/v1/api-keys", {
      name: "watcher",
      role: "viewer",
    });
    const token = key.body.token;
    const open = [];
    for (let i = 0; i < 3; i++) open.push(await openStream(platform.baseUrl, token, `${base}/events`));
    expect(open.map((stream) => stream.status)).toEqual([200, 200, 200]);

    const refused = await openStream(platform.baseUrl, token, `${base}/events`);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("5");
    expect(refused.error).toMatchObject({ code: "rate_limited", details: { scope: "streams", limit: 3 } });
    // The cap is per gateway: the other one takes the key's stream.
    const other = await openStream(platform.second, token, `${base}/events`);
    expect(other.status).toBe(200);
    other.close();

    open[0]?.close();
    await open[0]?.ended;
    let status = 0;
    for (let attempt = 0; attempt < 20 && status !== 200; attempt++) {
      const retried = await openStream(platform.baseUrl, token, `${base}/events`);
      status = retried.status;
      retried.close();
      if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(status).toBe(200);
    for (const stream of open) stream.close();
  });

  // Last: it stops the second gateway.
  it("ends its streams when a gateway shuts down, and a reconnect elsewhere resumes them", async () => {
    const { base } = await dataset();
    const stream = await openStream(platform.second, platform.ownerKey, `${base}/events`);
    expect(stream.status).toBe(200);
    const gateway = platform.processes.filter((proc) => proc.name === "gateway")[1];
    const stopping = Date.now();
    gateway?.child.kill("SIGTERM");
    await stream.ended;
    expect(await gateway?.exited).toBe(0);
    expect(Date.now() - stopping).toBeLessThan(10_000);

    const owner = client(platform.baseUrl, platform.ownerKey);
    expect((await owner.patch(`${base}/rows/r0`, { output: "after" })).status).toBe(200);
    const resumed = await openStream(platform.baseUrl, platform.ownerKey, `${base}/events`, {
      "last-event-id": "1",
    });
    expect((await resumed.waitForEvents(1))[0]?.id).toBe("2");
    resumed.close();
  });
});
