import { randomBytes } from "node:crypto";
import { createConnection, createServer, type Server, type Socket } from "node:net";
import type { Target } from "@svc/testing/platform";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { platforms } from "../../testing/platform.js";
import { Client, type DatasetVersionEvent, SvcError } from "../src/index.js";

/** A TCP relay to the gateway whose open connections can be cut at once, as a network failure does. */
class CuttableRelay {
  private readonly sockets = new Set<Socket>();
  private constructor(
    private readonly server: Server,
    readonly baseUrl: string,
  ) {}

  static async start(target: string): Promise<CuttableRelay> {
    const { hostname, port } = new URL(target);
    let relay: CuttableRelay | undefined;
    const server = createServer((client) => {
      const upstream = createConnection({ host: hostname, port: Number(port) });
      for (const socket of [client, upstream]) {
        relay?.sockets.add(socket);
        socket.on("close", () => relay?.sockets.delete(socket));
        socket.on("error", () => undefined);
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const address = server.address();
    relay = new CuttableRelay(
      server,
      `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`,
    );
    return relay;
  }

  cut(): void {
    for (const socket of this.sockets) socket.destroy();
  }

  async close(): Promise<void> {
    this.cut();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

describe.each(platforms())("client.datasets.watch against the %s platform", (_name, start) => {
  let platform: Target;
  let client: Client;

  beforeAll(async () => {
    platform = await start();
    client = new Client({ apiKey: platform.ownerKey, baseUrl: platform.baseUrl });
  });
  afterAll(async () => {
    await platform?.stop();
  });

  async function makeDataset() {
    const project = await client.projects.create({ name: `watch ${randomBytes(4).toString("hex")}` });
    const dataset = await client.datasets.create(project.slug, { name: "qa" });
    await client.datasets.insertRows(project.slug, dataset.slug, { rows: [{ id: "q0", input: "1+1" }] });
    return { p: project.slug, d: dataset.slug };
  }

  /** Takes events from the iterator into `into`, until it ends or throws (the outcome). */
  function collect(iterator: AsyncIterable<DatasetVersionEvent>, into: DatasetVersionEvent[]) {
    return (async () => {
      for await (const event of iterator) into.push(event);
    })();
  }
  async function until(check: () => boolean, timeoutMs = 10_000) {
    const started = Date.now();
    while (!check()) {
      if (Date.now() - started > timeoutMs) throw new Error("timed out");
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  it("yields each new version, replays after `since`, and resumes after a dropped connection", async () => {
    const { p, d } = await makeDataset();
    const relay = await CuttableRelay.start(platform.baseUrl);
    const through = new Client({ apiKey: platform.ownerKey, baseUrl: relay.baseUrl });
    const abort = new AbortController();
    const events: DatasetVersionEvent[] = [];
    const done = collect(through.datasets.watch(p, d, { since: 0, signal: abort.signal }), events);
    try {
      await until(() => events.length === 1);
      expect(events[0]).toMatchObject({ version: 1, operation: "insert", rowIds: ["q0"] });

      await client.datasets.updateRow(p, d, "q0", { output: "2" });
      await until(() => events.length === 2);
      relay.cut();
      // Made while the connection is down: the iterator gets them from its reconnection's replay.
      await client.datasets.updateRow(p, d, "q0", { output: "3" });
      await client.datasets.insertRows(p, d, { rows: [{ id: "q1", input: "2+2" }] });
      await until(() => events.length === 4);
      await client.datasets.updateRow(p, d, "q1", { output: "4" });
      await until(() => events.length === 5);
    } finally {
      abort.abort();
      await done;
      await relay.close();
    }
    expect(events.map((event) => [event.version, event.operation, event.rowIds])).toEqual([
      [1, "insert", ["q0"]],
      [2, "update", ["q0"]],
      [3, "update", ["q0"]],
      [4, "insert", ["q1"]],
      [5, "update", ["q1"]],
    ]);
  });

  it("starts with the next version by default, and ends when the loop breaks", async () => {
    const { p, d } = await makeDataset();
    const iterator = client.datasets.events(p, d);
    const next = iterator.next();
    await new Promise((resolve) => setTimeout(resolve, 500));
    await client.datasets.deleteRows(p, d, { selection: { mode: "all" } });
    const { value } = await next;
    expect(value).toMatchObject({ version: 2, operation: "delete", rowIds: ["q0"], rowsDeleted: 1 });
    await iterator.return();
  });

  it("throws the platform's error for a dataset that does not exist", async () => {
    const { p } = await makeDataset();
    const error = await client.datasets
      .watch(p, "missing")
      .next()
      .then(
        () => undefined,
        (failure: unknown) => failure,
      );
    expect(error).toBeInstanceOf(SvcError);
    expect(error).toMatchObject({ status: 404, code: "not_found" });
  });
});
