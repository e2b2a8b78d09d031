import { createHash, randomBytes } from "node:crypto";
import { readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { realInfra } from "@svc/testing";
import { connect } from "nats";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DirectoryUploadStore, NatsUploadStore, readBack, type UploadStore } from "./uploads";

const MiB = 2 ** 20;

async function* pieces(data: Buffer, size = MiB): AsyncIterable<Uint8Array> {
  for (let at = 0; at < data.length; at += size) yield data.subarray(at, at + size);
}

const sha = (data: Uint8Array) => createHash("sha256").update(data).digest("hex");

async function readAll(source: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const parts: Uint8Array[] = [];
  for await (const part of source) parts.push(part);
  return Buffer.concat(parts);
}

const stores: [string, () => Promise<{ store: UploadStore; close(): Promise<void> }>][] = [
  [
    "directory",
    async () => {
      const dir = join(tmpdir(), `svc-uploads-${randomBytes(4).toString("hex")}`);
      return { store: new DirectoryUploadStore(dir), close: () => rm(dir, { recursive: true, force: true }) };
    },
  ],
];
const infra = realInfra();
if (infra) {
  stores.push([
    "nats",
    async () => {
      const nc = await connect({ servers: infra.natsUrl });
      const bucket = `uploads${randomBytes(4).toString("hex")}`;
      return {
        store: new NatsUploadStore(nc, bucket),
        close: async () => {
          await nc.jetstreamManager().then((jsm) => jsm.streams.delete(`OBJ_${bucket}`));
          await nc.close();
        },
      };
    },
  ]);
}

describe.each(stores)("%s upload store", (_kind, open) => {
  let store: UploadStore;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ store, close } = await open());
  });
  afterAll(() => close());

  it("gives back the bytes it was given, streamed and as a local file, and forgets them on delete", async () => {
    const data = randomBytes(3 * MiB + 17);
    await store.put("one", pieces(data, 300_000));
    expect(sha(await readAll(store.get("one")))).toBe(sha(data));
    const local = await store.local("one");
    expect(sha(await readFile(local.path))).toBe(sha(data));
    await local.release();
    await store.delete("one");
    await expect(readAll(store.get("one"))).rejects.toThrow();
  });

  it("stores nothing from a dropped upload", async () => {
    async function* dropped(): AsyncIterable<Uint8Array> {
      yield randomBytes(MiB);
      throw new Error("the client went away");
    }
    await expect(store.put("dropped", dropped())).rejects.toThrow("went away");
    await expect(readAll(store.get("dropped"))).rejects.toThrow();
  });

  it("holds only a little of a big file while its reader is slow", async () => {
    const data = randomBytes(24 * MiB);
    await store.put("big", pieces(data));
    const reader = store.get("big")[Symbol.asyncIterator]();
    const first = await reader.next();
    expect(first.done).toBe(false);
    // A reader busy elsewhere: whatever the store pushes meanwhile piles up in memory.
    const before = process.memoryUsage().arrayBuffers;
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const held = process.memoryUsage().arrayBuffers - before;
    const rest: Uint8Array[] = [first.value as Uint8Array];
    for (let next = await reader.next(); !next.done; next = await reader.next()) rest.push(next.value);
    expect(sha(Buffer.concat(rest))).toBe(sha(data));
    expect(held).toBeLessThan(8 * MiB);
    await store.delete("big");
  }, 60_000);
});

describe.runIf(infra)("nats upload store, its connection lost", () => {
  it("refuses the file as a retryable 503, not as an internal error, when the bus goes while it arrives", async () => {
    const nc = await connect({ servers: infra?.natsUrl ?? "" });
    const bucket = `uploads${randomBytes(4).toString("hex")}`;
    const store = new NatsUploadStore(nc, bucket);
    async function* cutOff(): AsyncIterable<Uint8Array> {
      yield randomBytes(MiB);
      await nc.close();
      yield randomBytes(MiB);
    }
    try {
      await expect(store.put("cut", cutOff())).rejects.toMatchObject({
        code: "service_unavailable",
        message: expect.stringMatching(/nothing of it was kept; send it again/),
      });
    } finally {
      const admin = await connect({ servers: infra?.natsUrl ?? "" });
      await admin
        .jetstreamManager()
        .then((jsm) => jsm.streams.delete(`OBJ_${bucket}`))
        .catch(() => undefined);
      await admin.close();
    }
  });
});

describe.runIf(infra)("nats upload store, its bucket lost while a file arrives", () => {
  it("refuses the file as a retryable 503, and no refused piece is left unhandled to end the process", async () => {
    const nc = await connect({ servers: infra?.natsUrl ?? "" });
    const bucket = `uploads${randomBytes(4).toString("hex")}`;
    const store = new NatsUploadStore(nc, bucket);
    const jsm = await nc.jetstreamManager();
    const unhandled: unknown[] = [];
    const keep = (reason: unknown) => unhandled.push(reason);
    process.on("unhandledRejection", keep);
    // As when the server holding the bucket is lost: the pieces already sent are refused ("no
    // responders") while the client is still sending the rest.
    async function* slowly(): AsyncIterable<Uint8Array> {
      yield randomBytes(MiB);
      await jsm.streams.delete(`OBJ_${bucket}`);
      for (let i = 0; i < 8; i++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        yield randomBytes(256 * 1024);
      }
    }
    try {
      await expect(store.put("lost", slowly())).rejects.toMatchObject({ code: "service_unavailable" });
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(unhandled).toEqual([]);
    } finally {
      process.off("unhandledRejection", keep);
      await jsm.streams.delete(`OBJ_${bucket}`).catch(() => undefined);
      await nc.close();
    }
  });
});

describe("reading a stored file back", () => {
  const notThere = () => Object.assign(new Error("404"), { code: "404" });

  it("waits out a chunk that a copy of the bucket does not have yet", async () => {
    let asked = 0;
    const read = async () => {
      asked++;
      if (asked < 3) throw notThere();
      return "chunk";
    };
    await expect(readBack(read, { notFoundIsFinal: false })).resolves.toBe("chunk");
    expect(asked).toBe(3);
  });

  it("does not wait for a file that is not there, and gives up on a bus that does not come back with a 503", async () => {
    let asked = 0;
    await expect(
      readBack(async () => {
        asked++;
        throw notThere();
      }),
    ).rejects.toMatchObject({ code: "404" });
    expect(asked).toBe(1);
    await expect(
      readBack(
        async () => {
          throw new Error("TIMEOUT");
        },
        { withinMs: 300 },
      ),
    ).rejects.toMatchObject({ code: "service_unavailable" });
  });
});
