import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import pg from "pg";
import type { Client } from "./http";

/** One row that one load worker edits, again and again. */
export interface EditTarget {
  datasetId: string;
  base: string;
  rowId: string;
}

/** An edit the platform answered 200 to: it must be in the database at that version. */
export interface AcknowledgedEdit {
  datasetId: string;
  rowId: string;
  versionId: string;
  version: number;
  value: number;
}

/** An edit the platform did not answer 200 to: a client would retry it, with the same key if it sent one. */
export interface FailedEdit {
  target: EditTarget;
  value: number;
  status: number;
  /** The error's `code`, when the answer was the platform's error. */
  code: string | undefined;
  idempotencyKey: string | undefined;
}

export interface EditLoadOptions {
  baseUrl: string;
  apiKey: string;
  /** A request that takes longer is aborted and counted as hung (status 0). */
  requestTimeoutMs: number;
  /** The load stops by itself after this long, whatever happens. */
  maxDurationMs?: number;
  /** Send each edit with an Idempotency-Key of its own, so that a failed one can be retried exactly. */
  idempotencyKeys?: boolean;
}

/**
 * Workers that each edit their own rows in a loop, recording every answer, until stopped. Every
 * request is bounded by `requestTimeoutMs`: one that outlives it is recorded as hung, never awaited.
 */
/** When one request was sent and answered, and how. */
export interface Answer {
  startedAt: number;
  answeredAt: number;
  status: number;
  /** The error's `code`, when the answer was the platform's error. */
  code?: string | undefined;
  /** The Retry-After header of a refusal. */
  retryAfter?: string | undefined;
}

export class EditLoad {
  readonly acknowledged: AcknowledgedEdit[] = [];
  readonly answers: Answer[] = [];
  readonly failed: FailedEdit[] = [];
  readonly statuses = new Map<number, number>();
  maxLatencyMs = 0;
  private stopped = false;
  private seq = 0;
  private readonly running: Promise<void>;

  constructor(
    private readonly options: EditLoadOptions,
    workers: EditTarget[][],
  ) {
    const deadline = Date.now() + (options.maxDurationMs ?? 60_000);
    this.running = Promise.all(workers.map((rows) => this.work(rows, deadline))).then(() => undefined);
  }

  /** Answers counted so far with `status`. */
  count(status: number): number {
    return this.statuses.get(status) ?? 0;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.running;
  }

  private async work(rows: EditTarget[], deadline: number): Promise<void> {
    for (let i = 0; !this.stopped && Date.now() < deadline; i++) {
      const target = rows[i % rows.length] as EditTarget;
      const value = ++this.seq;
      const started = Date.now();
      const idempotencyKey = this.options.idempotencyKeys ? `load-${value}-${randomUUID()}` : undefined;
      const status = await this.edit(target, value, idempotencyKey);
      const answeredAt = Date.now();
      this.answers.push({
        startedAt: started,
        answeredAt,
        status: status.code,
        code: status.error,
        retryAfter: status.retryAfter,
      });
      this.maxLatencyMs = Math.max(this.maxLatencyMs, answeredAt - started);
      this.statuses.set(status.code, (this.statuses.get(status.code) ?? 0) + 1);
      if (status.result !== undefined) {
        this.acknowledged.push({ datasetId: target.datasetId, rowId: target.rowId, ...status.result, value });
      } else {
        this.failed.push({ target, value, status: status.code, code: status.error, idempotencyKey });
        // A refused edit: the client backs off a little, as a real one would after a 503.
        if (status.code !== 0) await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }
  }

  private async edit(
    target: EditTarget,
    value: number,
    idempotencyKey: string | undefined,
  ): Promise<{
    code: number;
    error?: string;
    retryAfter?: string;
    result?: { versionId: string; version: number };
  }> {
    try {
      const response = await fetch(`${this.options.baseUrl}${target.base}/rows/${target.rowId}`, {
        method: "PATCH",
        headers: {
          authorization: `Bearer ${this.options.apiKey}`,
          "content-type": "application/json",
          ...(idempotencyKey ? { "idempotency-key": idempotencyKey } : {}),
        },
        body: JSON.stringify({ expectedOutput: { value } }),
        signal: AbortSignal.timeout(this.options.requestTimeoutMs),
      });
      const body = (await response.json()) as { versionId: string; version: number; code?: string };
      if (response.status === 200) {
        return { code: 200, result: { versionId: body.versionId, version: body.version } };
      }
      const retryAfter = response.headers.get("retry-after");
      return {
        code: response.status,
        ...(body.code === undefined ? {} : { error: body.code }),
        ...(retryAfter === null ? {} : { retryAfter }),
      };
    } catch {
      return { code: 0 };
    }
  }
}

/** Datasets of `rows` rows each, spread over `workers` workers so that no two workers share a row. */
export async function makeEditTargets(
  api: Client,
  project: string,
  { datasets, rows, workers }: { datasets: number; rows: number; workers: number },
): Promise<EditTarget[][]> {
  const all: EditTarget[] = [];
  for (let d = 0; d < datasets; d++) {
    const created = await api.post<{ id: string; slug: string }>(`/v1/projects/${project}/datasets`, {
      name: `Load ${d}`,
    });
    if (created.status !== 201) throw new Error(`creating a dataset failed: ${created.status}`);
    const base = `/v1/projects/${project}/datasets/${created.body.slug}`;
    const rowIds = Array.from({ length: rows }, (_, i) => `r${i}`);
    const inserted = await api.post(`${base}/rows`, { rows: rowIds.map((id) => ({ id, input: id })) });
    if (inserted.status !== 201) throw new Error(`inserting rows failed: ${inserted.status}`);
    for (const rowId of rowIds) all.push({ datasetId: created.body.id, base, rowId });
  }
  return Array.from({ length: workers }, (_, w) => all.filter((_, i) => i % workers === w));
}

/**
 * Proves that each acknowledged `{versionId, version}` is a version of its dataset in
 * `dataset_versions`: the id the client was given names exactly that version.
 */
export async function assertAcknowledgedVersionsExist(
  databaseUrl: string,
  edits: readonly Pick<AcknowledgedEdit, "datasetId" | "versionId" | "version">[],
): Promise<void> {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const missing = await db.query(
      `SELECT a.dataset_id, a.version_id, a.version
       FROM unnest($1::text[], $2::text[], $3::int[]) AS a(dataset_id, version_id, version)
       LEFT JOIN dataset_versions v ON v.id = a.version_id AND v.dataset_id::text = a.dataset_id AND v.version = a.version
       WHERE v.id IS NULL
       LIMIT 5`,
      [edits.map((e) => e.datasetId), edits.map((e) => e.versionId), edits.map((e) => e.version)],
    );
    if (missing.rows.length > 0) {
      throw new Error(`acknowledged versions missing from dataset_versions: ${JSON.stringify(missing.rows)}`);
    }
  } finally {
    await db.end();
  }
}

/** Resident memory of a process, in MB, from /proc. */
export function rssMb(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  if (!match) throw new Error(`no VmRSS for process ${pid}`);
  return Number(match[1]) / 1024;
}
