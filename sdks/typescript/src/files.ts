import {
  DatasetsResource,
  type DatasetVersionEvent,
  type GetDatasetImportResponse,
} from "./api.generated.js";
import { SvcError } from "./errors.js";
import { type WatchOptions, watchDataset } from "./live-changes.js";
import { encodePath, type FileData, type RequestOptions, type Transport } from "./transport.js";

/** An import's progress or outcome. */
export type DatasetImport = GetDatasetImportResponse;
export type ImportFileFormat = "csv" | "jsonl" | "json" | "parquet";

const MEDIA_TYPES: Record<ImportFileFormat, string> = {
  csv: "text/csv",
  jsonl: "application/x-ndjson",
  json: "application/json",
  parquet: "application/vnd.apache.parquet",
};

/** What a file to import may be: bytes, text, a `Blob` (`fs.openAsBlob(path)` in Node), or a stream. */
export type ImportFileBody =
  | Blob
  | ArrayBuffer
  | Uint8Array
  | string
  | ReadableStream<Uint8Array>
  | AsyncIterable<Uint8Array>;

export interface ImportFileOptions extends RequestOptions {
  /** The file's format; by default taken from a `File`'s name (`.csv`, `.jsonl`/`.ndjson`, `.json`, `.parquet`). */
  format?: ImportFileFormat | undefined;
  /** `insert` (default): every line is a new row; `update`: every line edits the row its id names. */
  mode?: "insert" | "update" | undefined;
  /** From a file field to a cell identifier or `"new:<display name>"`; fields not named are not imported. */
  map?: Record<string, string> | undefined;
  /** The field that holds row ids (default `id`; JSONL and JSON also take `rowId`). */
  idField?: string | undefined;
  /** Wait for the import to end (default): resolves with it, or throws its error. */
  wait?: boolean | undefined;
  /** Between two looks at a running import, in milliseconds (default 500). */
  pollIntervalMs?: number | undefined;
  /** Called with the import's progress each time it is read. */
  onProgress?: ((job: DatasetImport) => void) | undefined;
}

export interface ExportFileOptions extends RequestOptions {
  format: "csv" | "jsonl" | "parquet";
  /** The version to export; the current one by default. */
  version?: number | undefined;
}

/**
 * The datasets resource with its file helpers: importing a file as one version (streamed, with its
 * progress) and exporting a dataset as a file; and its live changes (`watch`). The generated methods
 * cover every JSON call.
 */
export class DatasetsWithFiles extends DatasetsResource {
  readonly #files: Transport;

  constructor(transport: Transport) {
    super(transport);
    this.#files = transport;
  }

  /**
   * Imports a file into a dataset as one version, all or nothing. By default waits for the import to
   * end and resolves with it (its `version`, `rowsInserted` or `rowsUpdated`); a bad file throws an
   * `SvcError` whose `details.line` names the line. A file given as a stream is sent once, not retried;
   * an `idempotencyKey` makes a retry of the whole call import once.
   */
  async importFile(
    projectSlug: string,
    datasetSlug: string,
    file: ImportFileBody,
    options: ImportFileOptions = {},
  ): Promise<DatasetImport> {
    const format = options.format ?? formatOfName(file);
    if (!format) {
      throw new TypeError(
        'importFile needs options.format ("csv", "jsonl", "json" or "parquet") for a file without a name',
      );
    }
    const { data, replayable } = bodyOf(file);
    const started = await this.#files.request<DatasetImport>({
      method: "POST",
      path: `/v1/projects/${encodePath(projectSlug)}/datasets/${encodePath(datasetSlug)}/imports`,
      query: {
        mode: options.mode,
        map: options.map === undefined ? undefined : JSON.stringify(options.map),
        idField: options.idField,
      },
      file: { data, contentType: MEDIA_TYPES[format], replayable },
      options,
    });
    if (options.wait === false) return started;
    return this.waitForImport(projectSlug, datasetSlug, started.importId, options);
  }

  /** Reads an import until it ends; resolves with it when it succeeded, throws its error when it failed. */
  async waitForImport(
    projectSlug: string,
    datasetSlug: string,
    importId: string,
    options: Pick<ImportFileOptions, "pollIntervalMs" | "onProgress" | "signal" | "timeoutMs"> = {},
  ): Promise<DatasetImport> {
    const interval = options.pollIntervalMs ?? 500;
    for (;;) {
      const job = await this.getImport(projectSlug, datasetSlug, importId, {
        signal: options.signal,
        timeoutMs: options.timeoutMs,
      });
      options.onProgress?.(job);
      if (job.state === "succeeded") return job;
      if (job.state === "failed") {
        throw new SvcError({
          status: 422,
          code: job.error?.code ?? "import_failed",
          message: job.error?.error ?? `Import ${importId} failed`,
          details: { ...job.error?.details, importId },
        });
      }
      await new Promise((resolve) => setTimeout(resolve, interval));
      options.signal?.throwIfAborted();
    }
  }

  /**
   * The dataset (at `version`, default the current one) as a CSV, JSONL or Parquet file: the response, its body
   * not yet read, so that a large export streams (`response.body`) or is read whole (`response.text()`).
   * A CSV's `X-Svc-Columns` header maps each heading to its column identifier.
   */
  exportFile(projectSlug: string, datasetSlug: string, options: ExportFileOptions): Promise<Response> {
    return this.#files.download({
      method: "GET",
      path: `/v1/projects/${encodePath(projectSlug)}/datasets/${encodePath(datasetSlug)}/export`,
      query: { format: options.format, version: options.version },
      options,
    });
  }

  /**
   * The dataset's new versions as they are made, one event each, in order: `for await (const event of
   * client.datasets.watch(p, d, { since, signal }))`. A dropped connection is resumed with
   * `Last-Event-ID` after a backoff, without a version missed or repeated.
   */
  watch(
    projectSlug: string,
    datasetSlug: string,
    options: WatchOptions = {},
  ): AsyncGenerator<DatasetVersionEvent, void, undefined> {
    return watchDataset(this.#files, projectSlug, datasetSlug, options);
  }

  /** `watch`, with the version to start after named `after`. */
  events(
    projectSlug: string,
    datasetSlug: string,
    { after, ...options }: Omit<WatchOptions, "since"> & { after?: number | undefined } = {},
  ): AsyncGenerator<DatasetVersionEvent, void, undefined> {
    return this.watch(projectSlug, datasetSlug, { ...options, since: after });
  }
}

function formatOfName(file: ImportFileBody): ImportFileFormat | undefined {
  const name = (file as { name?: unknown }).name;
  if (typeof name !== "string") return undefined;
  const lower = name.toLowerCase();
  if (lower.endsWith(".csv")) return "csv";
  if (lower.endsWith(".jsonl") || lower.endsWith(".ndjson")) return "jsonl";
  if (lower.endsWith(".json")) return "json";
  if (lower.endsWith(".parquet")) return "parquet";
  return undefined;
}

function bodyOf(file: ImportFileBody): { data: FileData; replayable: boolean } {
  if (typeof file === "string" || file instanceof Uint8Array || file instanceof ArrayBuffer) {
    return { data: file as FileData, replayable: true };
  }
  if (typeof Blob !== "undefined" && file instanceof Blob) return { data: file, replayable: true };
  if (typeof (file as ReadableStream).getReader === "function") {
    return { data: file as ReadableStream<Uint8Array>, replayable: false };
  }
  // Pulled a piece at a time, as the upload takes them: the file is never held whole.
  const iterator = (file as AsyncIterable<Uint8Array>)[Symbol.asyncIterator]();
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await iterator.next();
      if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
    async cancel(reason) {
      await iterator.return?.(reason);
    },
  });
  return { data: stream, replayable: false };
}
