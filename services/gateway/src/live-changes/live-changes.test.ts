import { InProcessBus } from "@svc/bus";
import {
  type DatasetEventsPage,
  type DatasetVersionEvent,
  datasetEventsSubject,
  operations,
  type RequestContext,
  subjects,
} from "@svc/contracts";
import { createLogger } from "@svc/telemetry";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { StreamSink } from "./event-stream";
import { type DatasetKey, LiveChanges, type LiveChangesOptions } from "./live-changes";

const dataset: DatasetKey = { organizationId: "org1", projectSlug: "p", datasetSlug: "d" };
const keyA: RequestContext = {
  requestId: "r1",
  organizationId: "org1",
  role: "viewer",
  actor: { kind: "apiKey", id: "keyA" },
};

/** A client's end of a stream: what it received, and how much it has left unread. */
class FakeClient implements StreamSink {
  text = "";
  unread = 0;
  /** Bytes that pile up per write when the client does not read. */
  reading = true;
  ended: "ended" | "aborted" | undefined;
  private waiting: (() => void)[] = [];

  write(text: string): void {
    this.text += text;
    if (!this.reading) this.unread += text.length;
  }
  buffered(): number {
    return this.unread;
  }
  drained(): Promise<void> {
    return this.unread === 0 ? Promise.resolve() : new Promise((resolve) => this.waiting.push(resolve));
  }
  end(abort: boolean): void {
    this.ended = abort ? "aborted" : "ended";
  }
  readAll(): void {
    this.reading = true;
    this.unread = 0;
    for (const resolve of this.waiting.splice(0)) resolve();
  }
  /** The versions received, in order. */
  versions(): number[] {
    return [...this.text.matchAll(/^id: (\d+)$/gm)].map((match) => Number(match[1]));
  }
}

/** The reader, as far as streams see it: a dataset whose versions are 1..current. */
class FakeReader {
  current = 0;
  asked: (number | undefined)[] = [];
  gone = false;

  page(after: number | undefined, limit = 100): DatasetEventsPage {
    const events: DatasetVersionEvent[] = [];
    if (after !== undefined) {
      for (let v = after + 1; v <= Math.min(this.current, after + limit); v++) events.push(eventOf(v));
    }
    return { datasetId: "ds1", version: this.current, events };
  }
}

const eventOf = (version: number): DatasetVersionEvent => ({
  version,
  versionId: `v${version}`,
  createdAt: "2026-01-01T00:00:00.000Z",
  operation: "update",
  actor: { kind: "apiKey", id: "writer" },
  rowsInserted: 0,
  rowsUpdated: 1,
  rowsDeleted: 0,
  rowIds: [`row${version}`],
  rowIdsTruncated: false,
});

const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

describe("LiveChanges", () => {
  let bus: InProcessBus;
  let reader: FakeReader;
  let live: LiveChanges;
  const options: LiveChangesOptions = {
    perKey: 2,
    maxStreams: 100,
    keepAliveMs: 60_000,
    maxBufferedBytes: 1_000,
    drainTimeoutMs: 200,
  };

  beforeEach(() => {
    bus = new InProcessBus();
    reader = new FakeReader();
    bus.serve(operations.watchDataset.subject, async (request) => {
      const { after } = request.input as { after?: number };
      reader.asked.push(after);
      if (reader.gone) return { ok: false, error: { code: "not_found", message: "gone" } };
      return { ok: true, data: reader.page(after) };
    });
    live = new LiveChanges(bus, options, createLogger({ service: "test", level: "silent" }), 1_000);
  });
  afterEach(async () => {
    live.close();
    await bus.close();
  });

  /** Opens a stream as the route does: the reader's first page, then the stream. */
  async function open(after?: number, context = keyA) {
    const client = new FakeClient();
    live.admit(context);
    const first = await live.fetcher(context, dataset)(after);
    const stream = live.open({ dataset, context, first, after: after ?? first.version, sink: client });
    await settle();
    return { client, stream };
  }
  const announce = (version: number) => bus.publish(datasetEventsSubject(dataset), { ...dataset, version });

  it("sends each announced version once and in order, whatever order the announcements come in", async () => {
    reader.current = 2;
    const { client } = await open();
    reader.current = 5;
    announce(4);
    announce(3);
    announce(5);
    announce(4);
    await settle();
    expect(client.versions()).toEqual([3, 4, 5]);
  });

  it("fills a gap from the reader when an announcement was lost", async () => {
    reader.current = 1;
    const { client } = await open();
    reader.current = 3; // version 2 was never announced
    announce(3);
    await settle();
    expect(client.versions()).toEqual([2, 3]);
  });

  it("replays every version after Last-Event-ID, then goes on live without a duplicate", async () => {
    reader.current = 250;
    const { client } = await open(10);
    expect(client.versions()).toEqual(Array.from({ length: 240 }, (_, i) => i + 11));
    reader.current = 251;
    announce(251);
    await settle();
    expect(client.versions().slice(-3)).toEqual([249, 250, 251]);
    expect(new Set(client.versions()).size).toBe(client.versions().length);
  });

  it("catches a late-joining stream up while others of the same dataset are live", async () => {
    reader.current = 3;
    const early = await open();
    reader.current = 6;
    announce(6);
    await settle();
    const late = await open(2, { ...keyA, actor: { kind: "apiKey", id: "keyB" } });
    reader.current = 7;
    announce(7);
    await settle();
    expect(early.client.versions()).toEqual([4, 5, 6, 7]);
    expect(late.client.versions()).toEqual([3, 4, 5, 6, 7]);
  });

  it("drops a client that does not read rather than buffer for it", async () => {
    reader.current = 1;
    const { client, stream } = await open();
    client.reading = false;
    for (let v = 2; v <= 40; v++) {
      reader.current = v;
      announce(v);
      await settle();
    }
    expect(stream.closed).toBe(true);
    expect(client.ended).toBe("aborted");
    expect(client.unread).toBeLessThan(options.maxBufferedBytes + 1_000);
  });

  it("drops a replaying client that leaves a page unread past the drain timeout", async () => {
    reader.current = 300;
    const client = new FakeClient();
    client.reading = false;
    const first = await live.fetcher(keyA, dataset)(0);
    const stream = live.open({ dataset, context: keyA, first, after: 0, sink: client });
    await new Promise((resolve) => setTimeout(resolve, options.drainTimeoutMs + 100));
    expect(stream.closed).toBe(true);
    expect(client.versions()).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
  });

  it("refuses a credential's stream beyond the cap with 429, and takes it again once one closes", async () => {
    const first = await open();
    await open();
    expect(() => live.admit(keyA)).toThrow(expect.objectContaining({ code: "rate_limited" }));
    expect(() => live.admit({ ...keyA, actor: { kind: "apiKey", id: "other" } })).not.toThrow();
    first.stream.end("client");
    expect(() => live.admit(keyA)).not.toThrow();
  });

  it("ends the streams of a revoked credential, and every stream on close", async () => {
    const revoked = await open();
    const other = await open(undefined, { ...keyA, actor: { kind: "apiKey", id: "keyB" } });
    bus.publish(subjects.auth.credentialRevoked, { actor: { kind: "apiKey", id: "keyA" } });
    await settle();
    expect(revoked.stream.closed).toBe(true);
    expect(other.stream.closed).toBe(false);
    live.close();
    expect(other.client.ended).toBe("ended");
  });

  it("ends the streams of a dataset that was deleted", async () => {
    const { stream } = await open();
    reader.gone = true;
    announce(1);
    await settle();
    expect(stream.closed).toBe(true);
  });
});
