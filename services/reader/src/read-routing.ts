import type { Caller } from "@svc/contracts";
import { type Database, findDataset, isDependencyUnavailable } from "@svc/db";
import type { Logger } from "@svc/telemetry";
import type { Kysely } from "kysely";

/** What a read names of its dataset, when it reads one: its project's and its own slug. */
interface DatasetParams {
  projectSlug?: unknown;
  datasetSlug?: unknown;
}

export interface ReadRoutingOptions {
  /** How long a read that carries a version waits for the standby to have it before it goes to the primary. */
  waitMs: number;
  /** How often the standby is asked again meanwhile. */
  pollMs?: number;
  /** At most one line about a standby that cannot answer per this long. */
  logEveryMs?: number;
}

/**
 * Where a read runs: on the hot standby (`DATABASE_READ_URL`), unless its caller must see a version the
 * standby has not replayed yet. A read that carries `minVersion` (the `X-Svc-Min-Version` a client sends
 * after writing that version of the dataset) waits up to `waitMs` for the standby to have that version
 * of the dataset, then goes to the primary: a caller always reads its own writes. A read that names no
 * dataset but carries a version goes to the primary at once. A standby that cannot answer sends every
 * read to the primary. Without a standby, everything reads the primary.
 */
export class ReadRouting {
  private lastLog = Number.NEGATIVE_INFINITY;

  constructor(
    readonly primary: Kysely<Database>,
    private readonly standby: Kysely<Database> | undefined,
    private readonly logger: Logger,
    private readonly options: ReadRoutingOptions,
  ) {}

  /** Runs `read` on the database that can answer it, the primary when the standby fails to. */
  async run<T>(caller: Caller, params: unknown, read: (db: Kysely<Database>) => Promise<T>): Promise<T> {
    const db = await this.choose(caller, params);
    if (db === this.primary) return read(db);
    try {
      return await read(db);
    } catch (error) {
      if (!isDependencyUnavailable(error)) throw error;
      this.noteStandbyDown(error);
      return read(this.primary);
    }
  }

  /** The standby, unless the caller needs a version it does not have yet. */
  async choose(caller: Caller, params: unknown): Promise<Kysely<Database>> {
    const standby = this.standby;
    if (!standby) return this.primary;
    const minVersion = caller.minVersion;
    if (minVersion === undefined) return standby;
    const { projectSlug, datasetSlug } = (params ?? {}) as DatasetParams;
    if (typeof projectSlug !== "string" || typeof datasetSlug !== "string") return this.primary;
    const ref = { organizationId: caller.organizationId, projectSlug, datasetSlug };
    const deadline = Date.now() + this.options.waitMs;
    const pollMs = this.options.pollMs ?? 5;
    for (;;) {
      const left = deadline - Date.now();
      if (left <= 0) return this.primary;
      const version = await withinMs(
        findDataset(standby, ref).then((dataset) => dataset.version),
        left,
      ).catch((error: unknown) => {
        // Not there yet (a dataset just created): wait for it as for a version; down: the primary.
        if (isDependencyUnavailable(error)) this.noteStandbyDown(error);
        return isDependencyUnavailable(error) ? Number.NaN : -1;
      });
      if (Number.isNaN(version)) return this.primary;
      if (version !== undefined && version >= minVersion) return standby;
      await new Promise((resolve) =>
        setTimeout(resolve, Math.min(pollMs, Math.max(0, deadline - Date.now()))),
      );
    }
  }

  private noteStandbyDown(error: unknown): void {
    const now = Date.now();
    if (now - this.lastLog < (this.options.logEveryMs ?? 10_000)) return;
    this.lastLog = now;
    this.logger.error({ err: error }, "the read standby cannot answer; reads go to the primary meanwhile");
  }
}

/** `promise`'s value, or undefined when it takes longer than `ms`. */
function withinMs<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
