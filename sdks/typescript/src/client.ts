import { Resources } from "./api.generated.js";
import { ExperimentsWithRunner } from "./experiments.js";
import { DatasetsWithFiles } from "./files.js";
import { type FetchLike, Transport } from "./transport.js";

export const DEFAULT_BASE_URL = "http://127.0.0.1:8080";
export const DEFAULT_TIMEOUT_MS = 60_000;
export const DEFAULT_MAX_RETRIES = 2;

export interface ClientOptions {
  /** An API key of the organisation; defaults to the `SVC_API_KEY` environment variable. */
  apiKey?: string | undefined;
  /** Where the API is; defaults to `SVC_BASE_URL`, then `http://127.0.0.1:8080`. */
  baseUrl?: string | undefined;
  /** Time allowed for each attempt of a call, in milliseconds (default 60 000); overridable per call. */
  timeoutMs?: number | undefined;
  /** Retries after a connection error, a timeout, 408, 429 or 502–504 (default 2); overridable per call. */
  maxRetries?: number | undefined;
  /** The `fetch` to send requests with (default: the global one). */
  fetch?: FetchLike | undefined;
}

/**
 * The svc API. Operations are grouped by resource: `client.projects.list()`,
 * `client.datasets.updateRow(projectSlug, datasetSlug, rowId, changes)`, …
 */
export class Client extends Resources {
  readonly baseUrl: string;
  /** Datasets, with the file helpers `importFile`, `waitForImport` and `exportFile`. */
  declare readonly datasets: DatasetsWithFiles;
  /** Experiments, with `run`: a task over a dataset version, scored and recorded. */
  declare readonly experiments: ExperimentsWithRunner;

  constructor(options: ClientOptions = {}) {
    const baseUrl = (options.baseUrl ?? readEnv("SVC_BASE_URL") ?? DEFAULT_BASE_URL).replace(/\/+$/, "");
    const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const maxRetries = options.maxRetries ?? DEFAULT_MAX_RETRIES;
    if (!(timeoutMs > 0)) throw new RangeError("timeoutMs must be a positive number of milliseconds");
    if (!(Number.isInteger(maxRetries) && maxRetries >= 0)) {
      throw new RangeError("maxRetries must be a whole number, 0 or more");
    }
    const transport = new Transport({
      apiKey: options.apiKey ?? readEnv("SVC_API_KEY"),
      baseUrl,
      timeoutMs,
      maxRetries,
      fetch: options.fetch ?? ((url, init) => globalThis.fetch(url, init)),
    });
    super(transport);
    Object.defineProperty(this, "datasets", { value: new DatasetsWithFiles(transport), enumerable: true });
    Object.defineProperty(this, "experiments", {
      value: new ExperimentsWithRunner(transport),
      enumerable: true,
    });
    this.baseUrl = baseUrl;
  }
}

/** An environment variable where there is one (Node, Bun, Deno with --allow-env), else undefined. */
function readEnv(name: string): string | undefined {
  try {
    const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
    const value = env?.[name];
    return value === undefined || value === "" ? undefined : value;
  } catch {
    return undefined;
  }
}
