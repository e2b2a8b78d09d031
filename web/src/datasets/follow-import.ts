import { SvcError } from "@svc/sdk";
import type { Import } from "./import-steps";

/**
 * An import runs on after the platform accepted it, whatever its progress check answers: a `503`, a
 * `429` or a lost connection says nothing about the import, only that this check got no answer. So the
 * dialog keeps asking, waiting longer each time, until the import says how it ended or the person stops
 * waiting; only the import's own failure, or a refusal of the check itself, ends it.
 */

/** Statuses that say "not now" about the check, not anything about the import (0: no answer at all). */
const TRANSIENT_STATUSES = new Set([0, 408, 429, 502, 503, 504]);

export function isTransient(error: unknown): boolean {
  return error instanceof SvcError && TRANSIENT_STATUSES.has(error.status);
}

export interface FollowOptions {
  /** The wait between checks while the import answers. */
  intervalMs: number;
  /** The longest wait between checks that got no answer. */
  maxBackoffMs: number;
  signal: AbortSignal;
  onProgress(job: Import): void;
  /** How many checks in a row got no answer (0 once one answers again). */
  onUnanswered(count: number): void;
  sleep?(ms: number, signal: AbortSignal): Promise<void>;
}

/** The wait after the `count`-th check in a row that got no answer: doubling from the interval, capped. */
export function backoffMs(count: number, intervalMs: number, maxBackoffMs: number): number {
  return Math.min(maxBackoffMs, intervalMs * 2 ** Math.max(0, count));
}

/** Reads the import until it ends: resolves with it when it succeeded, throws its error when it failed. */
export async function followImport(
  read: (signal: AbortSignal) => Promise<Import>,
  options: FollowOptions,
): Promise<Import> {
  const sleep = options.sleep ?? delay;
  let unanswered = 0;
  for (;;) {
    options.signal.throwIfAborted();
    let job: Import;
    try {
      job = await read(options.signal);
    } catch (error) {
      if (options.signal.aborted || !isTransient(error)) throw error;
      unanswered++;
      options.onUnanswered(unanswered);
      await sleep(backoffMs(unanswered, options.intervalMs, options.maxBackoffMs), options.signal);
      continue;
    }
    if (unanswered > 0) {
      unanswered = 0;
      options.onUnanswered(0);
    }
    options.onProgress(job);
    if (job.state === "succeeded") return job;
    if (job.state === "failed") throw failureOf(job);
    await sleep(options.intervalMs, options.signal);
  }
}

/** A failed import as the error the dialog shows: its code, its message, its line. */
export function failureOf(job: Import): SvcError {
  return new SvcError({
    status: 422,
    code: job.error?.code ?? "import_failed",
    message: job.error?.error ?? `Import ${job.importId} failed`,
    details: { ...job.error?.details, importId: job.importId },
  });
}

function delay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", stop);
      resolve();
    }, ms);
    const stop = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener("abort", stop, { once: true });
  });
}

/**
 * The `Idempotency-Key` of an import: one per file and settings, kept until that import is known to
 * have ended, so that trying again after an unclear failure asks for the same import instead of a
 * second one; a file changed since (another size or date) or other settings are another import.
 */
export class ImportKeys {
  #signature: string | undefined;
  #key: string | undefined;

  constructor(private readonly newKey: () => string = () => crypto.randomUUID()) {}

  keyFor(file: { name: string; size: number; lastModified: number }, settings: unknown): string {
    const signature = JSON.stringify([file.name, file.size, file.lastModified, settings]);
    if (this.#signature !== signature || this.#key === undefined) {
      this.#signature = signature;
      this.#key = this.newKey();
    }
    return this.#key;
  }

  /** The import ended and its outcome is known: the same file again is a new import. */
  settled(): void {
    this.#signature = undefined;
    this.#key = undefined;
  }
}
