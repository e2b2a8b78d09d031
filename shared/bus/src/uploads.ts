import { createHash } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import { access, mkdir, mkdtemp, rename, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { DomainError } from "@svc/contracts";
import {
  headers,
  type JetStreamManager,
  type NatsConnection,
  nanos,
  nuid as nextNuid,
  type ObjectStore,
  StorageType,
  type StoredMsg,
} from "nats";

/**
 * Where uploaded files wait for the service that reads them: files never cross the bus as
 * messages. The gateway puts a file under a fresh name; the writer reads it once and deletes it.
 */
export interface UploadStore {
  /** Stores the file; a failure of `data` (a dropped upload) stores nothing and rethrows. */
  put(name: string, data: AsyncIterable<Uint8Array>): Promise<void>;
  /** The file, read as it is needed; throws when there is no file of that name. */
  get(name: string): AsyncIterable<Uint8Array>;
  /**
   * The file on this machine's disk, for a reader that needs to seek (Parquet keeps its index at the
   * end); `release` lets go of any copy made for it.
   */
  local(name: string): Promise<LocalFile>;
  delete(name: string): Promise<void>;
}

export interface LocalFile {
  path: string;
  release(): Promise<void>;
}

/** Files in a directory: the single-process platform's store. */
export class DirectoryUploadStore implements UploadStore {
  constructor(private readonly dir: string) {}

  async put(name: string, data: AsyncIterable<Uint8Array>): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    const partial = join(this.dir, `${safe(name)}.partial`);
    try {
      await pipeline(Readable.from(data), createWriteStream(partial));
      await rename(partial, join(this.dir, safe(name)));
    } catch (error) {
      await rm(partial, { force: true });
      throw error;
    }
  }

  get(name: string): AsyncIterable<Uint8Array> {
    return createReadStream(join(this.dir, safe(name)), { highWaterMark: 256 * 1024 });
  }

  async local(name: string): Promise<LocalFile> {
    const path = join(this.dir, safe(name));
    await access(path);
    return { path, release: async () => undefined };
  }

  async delete(name: string): Promise<void> {
    await rm(join(this.dir, safe(name)), { force: true });
  }
}

/** JetStream's direct get of a stream's messages: the manager has it, its published type leaves it out. */
interface DirectGet {
  direct: { getMessage(stream: string, query: { seq: number; next_by_subj: string }): Promise<StoredMsg> };
}

/**
 * The object store's chunk size, as its own `put` makes them: files put here are read by any client of
 * the object store.
 */
const CHUNK_BYTES = 128 * 1024;

/**
 * Chunks sent and not yet acknowledged, at most: 1 MiB of a file is in flight. A fast upload waits for
 * the server instead of piling up in this process's outgoing buffer (a gateway grew by 76 MB on a
 * 200 MB file when nothing waited).
 */
const CHUNKS_IN_FLIGHT = 8;

/**
 * How long an upload waits for the server to acknowledge a piece of the file: they come in
 * milliseconds, so a longer wait means the server holding the bucket was lost, and the client is
 * told to send the file again rather than kept waiting.
 */
const CHUNK_ACK_TIMEOUT_MS = 2_000;

/** An upload nobody read within this long is dropped by the store itself. */
const UPLOAD_TTL_MS = 24 * 3_600_000;

/**
 * Files in a NATS JetStream object store, which chunks them into messages of its own and keeps them
 * on disk: every gateway and writer of the installation sees the same files.
 */
export class NatsUploadStore implements UploadStore {
  private store: Promise<ObjectStore> | undefined;

  constructor(
    private readonly nc: NatsConnection,
    private readonly bucket: string,
    /**
     * Copies JetStream keeps of the bucket when this store creates it (SVC_JETSTREAM_REPLICAS): on a
     * cluster of three, 3, so that a file put survives the loss of any one server.
     */
    private readonly replicas = 1,
  ) {}

  private open(): Promise<ObjectStore> {
    this.store ??= this.nc
      .jetstream()
      .views.os(this.bucket, {
        storage: StorageType.File,
        ttl: nanos(UPLOAD_TTL_MS),
        replicas: this.replicas,
      })
      .catch((error: unknown) => {
        this.store = undefined;
        throw error;
      });
    return this.store;
  }

  /** The bucket's stream, as the object store names it. */
  private get stream(): string {
    return `OBJ_${this.bucket}`;
  }

  /** The subject of a file's chunks, as the object store names it: its writes and its reads meet there. */
  private chunkSubject(nuid: string): string {
    return `$O.${this.bucket}.C.${nuid}`;
  }

  /**
   * A failure of `data` (a dropped upload, a file over the limit) is rethrown as it is; a failure of
   * the bus itself (a server lost while the file arrived, its chunks unacknowledged) is a plain 503:
   * nothing of the file is kept, and the client sends it again.
   */
  async put(name: string, data: AsyncIterable<Uint8Array>): Promise<void> {
    const source = { failure: undefined as { error: unknown } | undefined };
    const watched = async function* () {
      try {
        yield* data;
      } catch (error) {
        source.failure = { error };
        throw error;
      }
    };
    try {
      await this.open();
      await this.write(name, watched());
    } catch {
      if (source.failure) throw source.failure.error;
      throw new DomainError(
        "service_unavailable",
        "The file could not be stored: the platform lost a message-bus server while it arrived, and nothing of it was kept; send it again (with the same Idempotency-Key, it imports once)",
      );
    }
  }

  /**
   * Writes the file as the object store writes one (its chunks under a fresh id, then its description
   * with their count, size and digest, which makes it visible), with at most `CHUNKS_IN_FLIGHT`
   * chunks unacknowledged. The object store's own `put` sends every chunk without waiting and looks
   * at the acknowledgements only at the end: one refused while the file still arrived (a server lost)
   * was a rejection nobody handled, which ends a Node process.
   */
  private async write(name: string, data: AsyncIterable<Uint8Array>): Promise<void> {
    const js = this.nc.jetstream();
    const nuid = nextNuid.next();
    const chunkSubject = this.chunkSubject(nuid);
    const chunkBytes = Math.min(CHUNK_BYTES, this.nc.info?.max_payload ?? CHUNK_BYTES);
    const digest = createHash("sha256");
    const inFlight = new Set<Promise<void>>();
    let refused: { error: unknown } | undefined;
    let size = 0;
    let chunks = 0;
    const send = async (chunk: Uint8Array) => {
      digest.update(chunk);
      size += chunk.byteLength;
      chunks++;
      const acked: Promise<void> = js
        .publish(chunkSubject, chunk, { timeout: CHUNK_ACK_TIMEOUT_MS })
        .then(
          () => undefined,
          (error: unknown) => {
            refused ??= { error };
          },
        )
        .finally(() => inFlight.delete(acked));
      inFlight.add(acked);
      if (inFlight.size >= CHUNKS_IN_FLIGHT) await Promise.race(inFlight);
      if (refused) throw refused.error;
    };
    try {
      let held = Buffer.alloc(0);
      for await (const piece of data) {
        held = held.byteLength === 0 ? Buffer.from(piece) : Buffer.concat([held, piece]);
        while (held.byteLength >= chunkBytes) {
          await send(held.subarray(0, chunkBytes));
          held = held.subarray(chunkBytes);
        }
      }
      if (held.byteLength > 0) await send(held);
      await Promise.all(inFlight);
      if (refused) throw refused.error;
      const description = {
        name,
        description: "",
        options: { max_chunk_size: chunkBytes },
        bucket: this.bucket,
        nuid,
        size,
        chunks,
        mtime: new Date().toISOString(),
        digest: `SHA-256=${base64UrlPadded(digest.digest())}`,
        deleted: false,
      };
      // A name's newest description replaces those before it, as with the object store's own put.
      const rollup = headers();
      rollup.set("Nats-Rollup", "sub");
      await js.publish(
        `$O.${this.bucket}.M.${base64UrlPadded(Buffer.from(name))}`,
        JSON.stringify(description),
        {
          headers: rollup,
          timeout: CHUNK_ACK_TIMEOUT_MS,
        },
      );
    } catch (error) {
      await Promise.all(inFlight);
      // What the server kept of the chunks goes, without keeping the client waiting on a cluster that
      // may still be choosing a new leader.
      void this.nc
        .jetstreamManager()
        .then((jsm) => jsm.streams.purge(this.stream, { filter: chunkSubject }))
        .catch(() => undefined);
      throw error;
    }
  }

  /**
   * The file's chunks, pulled from the bucket's stream as they are read. The object
   * store's own `get` pushes a file's chunks as fast as the server sends them, without waiting for
   * them to be read, so a slow reader (an import writing to the database) held most of the file in
   * memory; here each chunk is fetched by itself (JetStream's direct get, the next message of the
   * file's subject) once the reader is near it. The file's digest is checked at the end, as the
   * object store checks it.
   */
  async *get(name: string): AsyncIterable<Uint8Array> {
    const store = await this.open();
    const info = await readBack(() => store.info(name));
    if (!info || info.deleted) throw new Error(`no uploaded file named ${name}`);
    if (info.size === 0) return;
    const jsm = (await this.nc.jetstreamManager()) as JetStreamManager & DirectGet;
    const subject = this.chunkSubject(info.nuid);
    const chunkFrom = (seq: number) => {
      // The file's description says the chunk is there: read from a copy of the bucket still
      // catching up (a server just back), it is not there yet, and is asked for again.
      const chunk = readBack(() => jsm.direct.getMessage(this.stream, { seq, next_by_subj: subject }), {
        notFoundIsFinal: false,
      });
      chunk.catch(() => undefined); // A reader that stops early leaves the next chunk unread.
      return chunk;
    };
    const digest = createHash("sha256");
    let received = 0;
    // One chunk is asked for ahead of the one being read, no more.
    let next = chunkFrom(1);
    while (received < info.size) {
      const chunk = await next;
      received += chunk.data.length;
      if (received < info.size) next = chunkFrom(chunk.seq + 1);
      digest.update(chunk.data);
      yield chunk.data;
    }
    const expected = info.digest.replace(/^SHA-256=/, "");
    if (received !== info.size || digest.digest("base64url") !== expected.replace(/=+$/, "")) {
      throw new Error(`the uploaded file ${name} was read back incomplete or corrupt`);
    }
  }

  /** The file in a temporary file of its own, for a reader that seeks; removed on release. */
  async local(name: string): Promise<LocalFile> {
    const dir = await mkdtemp(join(tmpdir(), "svc-upload-"));
    const release = () => rm(dir, { recursive: true, force: true });
    const path = join(dir, "file");
    try {
      await pipeline(Readable.from(this.get(name)), createWriteStream(path));
      return { path, release };
    } catch (error) {
      await release();
      throw error;
    }
  }

  async delete(name: string): Promise<void> {
    const store = await this.open();
    await store.delete(name).catch(() => undefined);
  }
}

/**
 * How long reading a stored file back rides out a lost server: the bucket's other copies take over
 * within seconds (a new leader, the client reconnected to another server), so each read is tried
 * again until then, with a growing pause.
 */
const READ_BACK_WITHIN_MS = 15_000;

/**
 * `read`, tried again while the bus recovers from a lost server. A file that is not there is not
 * waited for (its description is read from the bucket's leader, which knows), unless
 * `notFoundIsFinal` is false: a chunk is read from any copy of the bucket (JetStream's direct get),
 * and a copy on a server just back may not have it yet. A read that still fails after
 * `READ_BACK_WITHIN_MS` is a plain 503 (the import that reads it writes nothing, and the file is sent
 * again).
 */
export async function readBack<T>(
  read: () => Promise<T>,
  { notFoundIsFinal = true, withinMs = READ_BACK_WITHIN_MS } = {},
): Promise<T> {
  const giveUpAt = Date.now() + withinMs;
  for (let pause = 100; ; pause = Math.min(pause * 2, 2_000)) {
    try {
      return await read();
    } catch (error) {
      if (notFoundIsFinal && isNotFound(error)) throw error;
      if (Date.now() + pause > giveUpAt)
        throw new DomainError(
          "service_unavailable",
          "The uploaded file could not be read back: the platform's message bus lost a server and did not recover in time; nothing was written, send the file again",
        );
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  }
}

/** JetStream's answer for a message or object that is not there (as opposed to a server that is not). */
const isNotFound = (error: unknown): boolean =>
  error instanceof Error && "code" in error && (error as { code: unknown }).code === "404";

/** Base64 with the URL's alphabet, its padding kept: how the object store names a file's subject and writes its digest. */
const base64UrlPadded = (bytes: Buffer): string =>
  bytes.toString("base64").replace(/\+/g, "-").replace(/\//g, "_");

const safe = (name: string) => name.replace(/[^A-Za-z0-9_-]/g, "_");
