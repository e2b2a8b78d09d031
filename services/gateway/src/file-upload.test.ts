import { mkdtempSync, readdirSync, rmSync } from "node:fs";
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

  it("is answered with the store's 503 over the connection, not reset under the client", async () => {
    // The store takes the first piece, then loses its server (as when a NATS node dies).
    const failing: UploadStore = {
      put: async (_name, data) => {
        for await (const _piece of data) break;
        throw new DomainError("service_unavailable", "The file could not be stored; send it again");
      },
      get: () => {
        throw new Error("nothing stored");
      },
      local: () => Promise.reject(new Error("nothing stored")),
      delete: async () => undefined,
    };
    platform = await fakePlatform({}, { uploads: failing });
    const address = await platform.gateway.app.listen({ host: "127.0.0.1", port: 0 });
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (sent >= 4 * 1024 ** 2) return controller.close();
        await new Promise((resolve) => setTimeout(resolve, 5));
        controller.enqueue(new Uint8Array(64 * 1024).fill(0x61));
        sent += 64 * 1024;
      },
    });
    const response = await fetch(`${address}/v1/projects/demo/datasets/set/imports`, {
      method: "POST",
      headers: { authorization: `Bearer ${platform.key("member")}`, "content-type": "text/csv" },
      body,
      duplex: "half",
    } as RequestInit);
    expect(response.status).toBe(503);
    expect(response.headers.get("retry-after")).toBe("1");
    expect(await response.json()).toMatchObject({ code: "service_unavailable" });
  });

  it("reads the rest of the body when the store stopped reading it without letting it go", async () => {
    // As the bus's object store does when its server is lost: it stops pulling the file, keeps its
    // reader, and fails later.
    const stalled: UploadStore = {
      put: async (_name, data) => {
        await data[Symbol.asyncIterator]().next();
        await new Promise((resolve) => setTimeout(resolve, 200));
        throw new DomainError("service_unavailable", "The file could not be stored; send it again");
      },
      get: () => {
        throw new Error("nothing stored");
      },
      local: () => Promise.reject(new Error("nothing stored")),
      delete: async () => undefined,
    };
    platform = await fakePlatform({}, { uploads: stalled });
    const address = await platform.gateway.app.listen({ host: "127.0.0.1", port: 0 });
    const size = 3 * 1024 ** 2;
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (sent >= size) return controller.close();
        await new Promise((resolve) => setTimeout(resolve, 2));
        controller.enqueue(new Uint8Array(128 * 1024).fill(0x61));
        sent += 128 * 1024;
      },
    });
    const response = await fetch(`${address}/v1/projects/demo/datasets/set/imports`, {
      method: "POST",
      headers: { authorization: `Bearer ${platform.key("member")}`, "content-type": "text/csv" },
      body,
      duplex: "half",
    } as RequestInit);
    expect(response.status).toBe(503);
    await response.json();
    // The whole file was taken off the connection, well before the gateway would give up on it...
    await expect.poll(() => sent, { timeout: 3_000 }).toBe(size);
    // ...so the connection serves the client's next request instead of being closed under it.
    await new Promise((resolve) => setTimeout(resolve, 100));
    const next = await fetch(`${address}/healthz`);
    expect(next.status).toBe(200);
  });
});
