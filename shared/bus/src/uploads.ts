import { createReadStream, createWriteStream } from "node:fs";
import { access, mkdir, mkdtemp, rename, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { type NatsConnection, nanos, type ObjectStore, StorageType } from "nats";

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
  ) {}

  private open(): Promise<ObjectStore> {
    this.store ??= this.nc
      .jetstream()
      .views.os(this.bucket, { storage: StorageType.File, ttl: nanos(UPLOAD_TTL_MS) })
      .catch((error: unknown) => {
        this.store = undefined;
        throw error;
      });
    return this.store;
  }

  async put(name: string, data: AsyncIterable<Uint8Array>): Promise<void> {
    const store = await this.open();
    const source = Readable.toWeb(Readable.from(data)) as ReadableStream<Uint8Array>;
    try {
      await store.put({ name }, source);
    } catch (error) {
      await store.delete(name).catch(() => undefined);
      throw error;
    }
  }

  /**
   * The object store pushes a file's chunks as fast as the server sends them, without waiting for
   * them to be read: read straight from it, a slow reader would hold the whole file in memory. So
   * the file is spooled to a temporary file first (disk keeps up with the network) and read from
   * there at the reader's pace.
   */
  async *get(name: string): AsyncIterable<Uint8Array> {
    const file = await this.local(name);
    try {
      yield* createReadStream(file.path, { highWaterMark: 256 * 1024 });
    } finally {
      await file.release();
    }
  }

  /** The file spooled to a temporary file of its own (see `get`), removed on release. */
  async local(name: string): Promise<LocalFile> {
    const store = await this.open();
    const result = await store.get(name);
    if (!result) throw new Error(`no uploaded file named ${name}`);
    const dir = await mkdtemp(join(tmpdir(), "svc-upload-"));
    const release = () => rm(dir, { recursive: true, force: true });
    const path = join(dir, "file");
    try {
      await pipeline(Readable.fromWeb(result.data as never), createWriteStream(path));
      const error = await result.error;
      if (error) throw error;
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

const safe = (name: string) => name.replace(/[^A-Za-z0-9_-]/g, "_");
