import type { Logger } from "pino";
import { z } from "zod";

/** How a process stops: see `onShutdown`. */
export const shutdownEnvSchema = z.object({
  SVC_DRAIN_DELAY_MS: z.coerce
    .number()
    .int()
    .min(0)
    .max(60_000)
    .default(0)
    .describe("After SIGTERM, time to keep serving while readiness is false, so load balancers stop sending"),
  SVC_SHUTDOWN_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(1_000)
    .default(25_000)
    .describe("After SIGTERM, the process exits with 1 if draining has not finished by then"),
});
export type ShutdownEnv = z.output<typeof shutdownEnvSchema>;

export interface ShutdownOptions {
  /** Exit with 1 if `stop` has not finished this long after the signal. */
  timeoutMs?: number;
}

/**
 * Runs `stop` once on SIGTERM or SIGINT, then exits 0 (1 if it failed or outlived `timeoutMs`). A second
 * signal exits at once, for a person who is in a hurry.
 */
export function onShutdown(logger: Logger, stop: () => Promise<void>, options: ShutdownOptions = {}): void {
  let stopping = false;
  const handler = (signal: NodeJS.Signals) => {
    if (stopping) process.exit(130);
    stopping = true;
    logger.info({ signal }, "shutting down");
    if (options.timeoutMs !== undefined) {
      const timeoutMs = options.timeoutMs;
      setTimeout(() => {
        logger.error({ timeoutMs }, "shutdown did not finish in time; exiting");
        process.exit(1);
      }, timeoutMs).unref();
    }
    stop().then(
      () => {
        logger.info("stopped");
        process.exit(0);
      },
      (error: unknown) => {
        logger.error({ err: error }, "shutdown failed");
        process.exit(1);
      },
    );
  };
  process.on("SIGTERM", handler);
  process.on("SIGINT", handler);
}

/** Retries `attempt` with exponential backoff until it succeeds: start-up waits for dependencies. */
export async function withBackoff<T>(
  what: string,
  logger: Logger,
  attempt: () => Promise<T>,
  { maxDelayMs = 5_000, maxAttempts = Number.POSITIVE_INFINITY } = {},
): Promise<T> {
  let delay = 100;
  for (let n = 1; ; n++) {
    try {
      return await attempt();
    } catch (error) {
      if (n >= maxAttempts) throw error;
      logger.warn({ err: error, attempt: n, retryInMs: delay }, `waiting for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, delay));
      delay = Math.min(delay * 2, maxDelayMs);
    }
  }
}
