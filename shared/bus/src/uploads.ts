import { createHash } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import { access, mkdir, mkdtemp, rename, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { DomainError } from "@svc/contracts";
import {
  type JetStreamManager,
  type NatsConnection,
  nanos,
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

/** An upload sends at most this much before it waits for the server to have read it. */
const FLUSH_EVERY_BYTES = 4 * 2 ** 20;

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
      const store = await this.open();
      const body = Readable.toWeb(Readable.from(this.paced(watched()))) as ReadableStream<Uint8Array>;
      try {
        await store.put({ name }, body, { timeout: CHUNK_ACK_TIMEOUT_MS });
      } catch (error) {
        // The store removed what it had of the file; this makes sure, without keeping the client
        // waiting on a cluster that may still be choosing a new leader.
        void store.delete(name).catch(() => undefined);
        throw error;
      }
    } catch {
      if (source.failure) throw source.failure.error;
      throw new DomainError(
        "service_unavailable",
        "The file could not be stored: the platform lost a message-bus server while it arrived, and nothing of it was kept; send it again (with the same Idempotency-Key, it imports once)",
      );
    }
  }

  /**
   * The file as the object store may take it. Its `put` publishes each chunk as it is read, without
   * waiting for the server to take it in, so a fast upload piled up in this process's outgoing
   * buffer (a gateway grew by 76 MB on a 200 MB file); every few MiB the upload now waits until the
   * server has read everything sent so far.
   */
  private async *paced(data: AsyncIterable<Uint8Array>): AsyncIterable<Uint8Array> {
    let unflushed = 0;
    for await (const piece of data) {
      yield piece;
      unflushed += piece.byteLength;
      if (unflushed >= FLUSH_EVERY_BYTES) {
        unflushed = 0;
        await this.nc.flush();
      }
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
    const stream = `OBJ_${this.bucket}`;
    const subject = `$O.${this.bucket}.C.${info.nuid}`;
    const chunkFrom = (seq: number) => {
      const chunk = readBack(() => jsm.direct.getMessage(stream, { seq, next_by_subj: subject }));
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
 * waited for; a read that still fails after `READ_BACK_WITHIN_MS` is a plain 503 (the import that
 * reads it writes nothing, and the file is sent again).
 */
async function readBack<T>(read: () => Promise<T>): Promise<T> {
  const giveUpAt = Date.now() + READ_BACK_WITHIN_MS;
  for (let pause = 100; ; pause = Math.min(pause * 2, 2_000)) {
    try {
      return await read();
    } catch (error) {
      if (isNotFound(error)) throw error;
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

const safe = (name: string) => name.replace(/[^A-Za-z0-9_-]/g, "_");
