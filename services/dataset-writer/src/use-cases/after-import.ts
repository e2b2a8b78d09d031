import type { Caller } from "@svc/contracts";
import { DatasetTakingImport } from "@svc/db";

/** How often a change waiting for an import's version tries again. */
const PAUSE_MS = 100;
/** A change still waiting this long before its requester's deadline is answered that it was refused. */
const ANSWER_BEFORE_DEADLINE_MS = 1_000;
/** How long a change waits when its requester set no deadline. */
const DEFAULT_WAIT_MS = 10_000;

/**
 * Runs a change of a dataset, and runs it again while an import holds the dataset (it writes the
 * dataset's next version in pieces, decision 0055), as a change used to wait for the dataset's lock
 * while an import moved its rows in: a small import's hold ends within moments, and the change then
 * goes through. A change still waiting shortly before its requester stops waiting is answered with
 * the refusal (409, naming the import), never left to time out; nothing of it was written.
 */
export async function afterImport<T>(caller: Caller, change: () => Promise<T>): Promise<T> {
  const giveUpAt = (caller.deadline ?? Date.now() + DEFAULT_WAIT_MS) - ANSWER_BEFORE_DEADLINE_MS;
  for (;;) {
    try {
      return await change();
    } catch (error) {
      if (!(error instanceof DatasetTakingImport) || Date.now() + PAUSE_MS > giveUpAt) throw error;
      await new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
    }
  }
}
