import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import type { IncomingMessage } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createGzip, gzipSync } from "node:zlib";
import { DirectoryUploadStore, type UploadStore } from "@svc/bus";
import { DomainError } from "@svc/contracts";
import { afterEach, describe, expect, it } from "vitest";
import { type FakePlatform, fakePlatform } from "./testing/fake-platform";

/** The directory store, counting the bytes it is given to store. */
function countingStore(dir: string): UploadStore & { stored: number } {
  const store = new DirectoryUploadStore(dir);
  const counting = {
    stored: 0,
    put: (name: string, data: AsyncIterable<Uint8Array>) =>
      store.put(
        name,
        (async function* () {
          for await (const chunk of data) {
            counting.stored += chunk.byteLength;
            yield chunk;
          }
        })(),
      ),
    get: (name: string) => store.get(name),
    local: (name: string) => store.local(name),
    delete: (name: string) => store.delete(name),
  };
  return counting;
}

/** `size` bytes of zeros, gzipped: a few hundred kilobytes for 256 MiB. */
async function gzipBomb(size: number): Promise<Buffer> {
  const gzip = createGzip({ level: 9 });
  const out: Buffer[] = [];
  gzip.on("data", (chunk: Buffer) => out.push(chunk));
  const done = new Promise((resolve) => gzip.on("end", resolve));
  const zeros = Buffer.alloc(1024 ** 2);
  for (let i = 0; i < size / zeros.length; i++)
    if (!gzip.write(zeros)) await new Promise((r) => gzip.once("drain", r));
  gzip.end();
  await done;
  return Buffer.concat(out);
}

describe("an upload sent with Content-Encoding: gzip", () => {
  let platform: FakePlatform | undefined;
  let dir: string | undefined;
  afterEach(async () => {
    await platform?.close();
    platform = undefined;
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("is refused with 413 as it unpacks beyond 200 times its size, without storing what it unpacks to", async () => {
    dir = mkdtempSync(join(tmpdir(), "svc-uploads-"));
    const uploads = countingStore(dir);
    platform = await fakePlatform({}, { uploads });
    const bomb = await gzipBomb(256 * 1024 ** 2);
    expect(bomb.byteLength).toBeLessThan(1024 ** 2);
    const started = performance.now();
    const response = await platform.gateway.app.inject({
      method: "POST",
      url: "/v1/projects/demo/datasets/set/imports",
      headers: {
        authorization: `Bearer ${platform.key("member")}`,
        "content-type": "text/csv",
        "content-encoding": "gzip",
      },
      payload: bomb,
    });
    const took = performance.now() - started;
    expect(response.statusCode).toBe(413);
    expect(response.json()).toMatchObject({ code: "payload_too_large", details: { ratioLimit: 200 } });
    expect(response.json().error).toMatch(/unpacks to more than 200 times its size/);
    expect(took).toBeLessThan(2_000);
    // At most what the limit allows for what had arrived, never the 256 MiB; and nothing is kept.
    expect(uploads.stored).toBeLessThanOrEqual(200 * bomb.byteLength + 1024 ** 2);
    expect(readdirSync(dir)).toEqual([]);
    expect((await platform.gateway.app.inject({ method: "GET", url: "/healthz" })).statusCode).toBe(200);
  });

  it("is unpacked when it stays within the ratio", async () => {
    dir = mkdtempSync(join(tmpdir(), "svc-uploads-"));
    const uploads = countingStore(dir);
    platform = await fakePlatform({}, { uploads });
    const text = Buffer.from(
      `id,input\r\n${Array.from({ length: 1000 }, (_, i) => `r${i},q${i}`).join("\r\n")}\r\n`,
    );
    const response = await platform.gateway.app.inject({
      method: "POST",
      url: "/v1/projects/demo/datasets/set/imports",
      headers: {
        authorization: `Bearer ${platform.key("member")}`,
        "content-type": "text/csv",
        "content-encoding": "gzip",
      },
      payload: gzipSync(text),
    });
    // No writer answers in this platform: the file was stored whole, then the call found no one.
    expect(response.statusCode).toBe(503);
    expect(uploads.stored).toBe(text.byteLength);
  });
});

describe("an upload the store refuses while the file is still arriving", () => {
  let platform: FakePlatform | undefined;
  afterEach(async () => {
    await platform?.close();
    platform = undefined;
  });

  /** A store that does `put` with the file and keeps nothing. */
  const storeThat = (put: UploadStore["put"]): UploadStore => ({
    put,
    get: () => {
      throw new Error("nothing stored");
    },
    local: () => Promise.reject(new Error("nothing stored")),
    delete: async () => undefined,
  });
  const lost = () => new DomainError("service_unavailable", "The file could not be stored; send it again");

  /** Sends 4 MiB in pieces of 128 KiB (as the e2e uploads are sent), slowly enough that the refusal comes while they arrive. */
  async function upload(store: UploadStore) {
    const size = 4 * 1024 ** 2;
    platform = await fakePlatform({}, { uploads: store });
    const address = await platform.gateway.app.listen({ host: "127.0.0.1", port: 0 });
    // When the gateway had read the whole file off the connection, or the client had closed it.
    let doneWithAt: number | undefined;
    platform.gateway.app.server.once("request", (request: IncomingMessage) => {
      const done = () => {
        doneWithAt ??= performance.now();
      };
      request.once("end", done);
      request.socket.once("close", done);
    });
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (sent >= size) return controller.close();
        await new Promise((resolve) => setTimeout(resolve, 2));
        controller.enqueue(new Uint8Array(128 * 1024).fill(0x61));
        sent += 128 * 1024;
      },
    });
    const started = performance.now();
    const response = await fetch(`${address}/v1/projects/demo/datasets/set/imports`, {
      method: "POST",
      headers: { authorization: `Bearer ${platform.key("member")}`, "content-type": "text/csv" },
      body,
      duplex: "half",
    } as RequestInit);
    return { response, address, started, doneWithAt: () => doneWithAt };
  }

  /**
   * The refusal reached the client over its connection, well before the gateway would give up on the
   * rest of the body (5 s) and close it, and the gateway answers the client's next request.
   */
  async function expectRefusedOverTheConnection(sending: Awaited<ReturnType<typeof upload>>) {
    const { response, address, started } = sending;
    expect(response.status).toBe(503);
    expect(response.headers.get("retry-after")).toBe("1");
    expect(await response.json()).toMatchObject({ code: "service_unavailable" });
    expect((await fetch(`${address}/healthz`)).status).toBe(200);
    expect(performance.now() - started).toBeLessThan(2_000);
  }

  it("is answered with the store's 503 over the connection, not reset under the client", async () => {
    // The store takes the first piece, lets go of the file, then loses its server (as when a NATS node dies).
    const store = storeThat(async (_name, data) => {
      for await (const _piece of data) break;
      throw lost();
    });
    await expectRefusedOverTheConnection(await upload(store));
  });

  it("reads the rest of the body when the store stopped reading it without letting it go", async () => {
    // As the object store's own put did when its server was lost: it stops pulling the file, keeps its
    // reader, and fails later.
    const store = storeThat(async (_name, data) => {
      await data[Symbol.asyncIterator]().next();
      await new Promise((resolve) => setTimeout(resolve, 200));
      throw lost();
    });
    const sending = await upload(store);
    await expectRefusedOverTheConnection(sending);
    // The rest of the file was read and thrown away at once (or the client, answered, stopped
    // sending and closed): left unread, the connection was closed after 5 s, under whatever the
    // client sent on it next.
    await expect.poll(sending.doneWithAt, { timeout: 2_000 }).toBeDefined();
    expect((sending.doneWithAt() ?? 0) - sending.started).toBeLessThan(2_000);
  });
});
