import { type Database, FOLD_BATCH, foldMarkedTraces } from "@svc/db";
import type { Logger } from "@svc/telemetry";
import type { Kysely } from "kysely";

/** Folds the traces an ingest marked in the background (decision 0051). */
export interface FoldRunner {
  /** Says that traces were marked: a fold starts shortly, taking the marks of several requests at once. */
  wake(): void;
  stop(): void;
}

export interface FoldTiming {
  /** From a wake to the fold it starts: requests arriving meanwhile are folded together. */
  delayMs: number;
  /** How often marks are looked for unwoken: those of a replica that stopped before folding them. */
  pollMs: number;
}

const DEFAULT_TIMING: FoldTiming = { delayMs: 50, pollMs: 1_000 };

/**
 * Folds marked traces, a batch a transaction, until none is left; once at start (marks left by a
 * process that stopped), then when woken and every `pollMs`. Several replicas fold side by side, each
 * passing over the marks another holds. A fold that fails is rolled back whole, its marks kept for
 * the next.
 */
export function startFoldRunner(
  { db, logger }: { db: Kysely<Database>; logger: Logger },
  timing: FoldTiming = DEFAULT_TIMING,
): FoldRunner {
  let stopped = false;
  let folding = false;
  let again = false;
  let woken: NodeJS.Timeout | undefined;
  const run = async () => {
    if (folding) {
      again = true;
      return;
    }
    folding = true;
    try {
      do {
        again = false;
        while (!stopped && (await foldMarkedTraces(db)) === FOLD_BATCH) {}
      } while (again && !stopped);
    } catch (error) {
      logger.warn({ err: error }, "could not fold marked traces; trying again within a second");
    } finally {
      folding = false;
    }
  };
  const poll = setInterval(() => void run(), timing.pollMs);
  poll.unref();
  void run();
  return {
    wake: () => {
      if (stopped || woken) return;
      woken = setTimeout(() => {
        woken = undefined;
        void run();
      }, timing.delayMs);
      woken.unref();
    },
    stop: () => {
      stopped = true;
      clearInterval(poll);
      clearTimeout(woken);
    },
  };
}
