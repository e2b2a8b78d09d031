import { type NatsConnection, headers as natsHeaders } from "nats";
import { describe, expect, it } from "vitest";
import { PublishBatch, ReplyInbox } from "./nats-replies";

/** A connection that records what is published, and when: enough for the requester's side. */
function recordingConnection() {
  const published: string[] = [];
  const nc = {
    subscribe: () => ({ unsubscribe: () => undefined }),
    publish: (subject: string) => void published.push(subject),
  } as unknown as NatsConnection;
  return { nc, published };
}

const endOfTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe("the requests of one turn of the event loop", () => {
  it("are published together once the turn's callbacks and their promises have run, not one by one", async () => {
    const { nc, published } = recordingConnection();
    const inbox = new ReplyInbox(nc);
    const outcomes = ["a", "b", "c"].map((subject) =>
      inbox.request(subject, new Uint8Array(), natsHeaders(), 1000),
    );
    // nats.js writes what was published when the current task's promises have run: by then, nothing yet.
    for (let i = 0; i < 10; i++) await Promise.resolve();
    expect(published).toEqual([]);
    await endOfTurn();
    expect(published).toEqual(["a", "b", "c"]);
    inbox.close();
    expect(await Promise.all(outcomes)).toEqual([{ kind: "lost" }, { kind: "lost" }, { kind: "lost" }]);
  });

  it("leaves out a request that ended before its turn was over (the connection dropped)", async () => {
    const { nc, published } = recordingConnection();
    const inbox = new ReplyInbox(nc);
    const outcome = inbox.request("gone", new Uint8Array(), natsHeaders(), 1000);
    inbox.abandonAll();
    await endOfTurn();
    expect(published).toEqual([]);
    expect(await outcome).toEqual({ kind: "lost" });
    const later = inbox.request("later", new Uint8Array(), natsHeaders(), 1000);
    await endOfTurn();
    expect(published).toEqual(["later"]);
    inbox.close();
    await later;
  });
});

describe("a batch of publishes (requests and replies alike)", () => {
  it("publishes in the order they were added, all at the end of the turn, and says when it has", async () => {
    const batch = new PublishBatch();
    const published: number[] = [];
    for (const n of [1, 2, 3]) batch.add(() => published.push(n));
    await Promise.resolve();
    expect(published).toEqual([]);
    await batch.sent();
    expect(published).toEqual([1, 2, 3]);
    batch.add(() => published.push(4));
    await batch.sent();
    expect(published).toEqual([1, 2, 3, 4]);
  });
});
