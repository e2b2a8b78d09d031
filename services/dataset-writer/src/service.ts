import { type Subscription, unsubscribeAll } from "@svc/bus";
import { pruneGatewayIdempotencyRecords } from "@svc/db";
import type { WriterDeps } from "./deps";
import { serveColumns } from "./handlers/columns";
import { serveDatasets } from "./handlers/datasets";
import { serveImports } from "./handlers/imports";
import { serveRows } from "./handlers/rows";
import { failAbandonedImports, listAbandonedHolds, undoPendingImport } from "./repositories/imports";

/**
 * Serves every dataset mutation on the bus, and fails the imports whose writer died. Returns a handle
 * that stops both.
 */
export function registerDatasetWriter(deps: WriterDeps): { stop(): void } {
  const sweeping = keepFailingAbandonedImports(deps);
  const pruning = keepPruningGatewayKeys(deps);
  const subscriptions: Subscription[] = [
    ...serveDatasets(deps),
    ...serveColumns(deps),
    ...serveRows(deps),
    ...serveImports(deps),
  ];
  return {
    stop: () => {
      unsubscribeAll(subscriptions);
      clearInterval(sweeping);
      clearInterval(pruning);
    },
  };
}

/** An import nothing has been heard of for this long lost its writer; it is failed and cleared. */
const DEFAULT_ABANDONED_MS = 60_000;

/** Fails abandoned imports now, and then every `importAbandonedMs` or every minute, whichever is sooner. */
function keepFailingAbandonedImports({ db, logger, importAbandonedMs }: WriterDeps): NodeJS.Timeout {
  const abandonedMs = importAbandonedMs ?? DEFAULT_ABANDONED_MS;
  const sweep = async () => {
    try {
      const count = await failAbandonedImports(db, abandonedMs);
      if (count > 0) logger.warn({ count }, "failed imports whose writer stopped");
      // What a failed import wrote into its dataset's coming version, if its own job could not undo it.
      for (const hold of await listAbandonedHolds(db))
        await undoPendingImport(db, hold.datasetId, hold.importId);
    } catch (error) {
      logger.warn({ err: error }, "could not sweep abandoned imports");
    }
  };
  void sweep();
  const timer = setInterval(sweep, Math.min(abandonedMs, DEFAULT_ABANDONED_MS));
  timer.unref();
  return timer;
}

const PRUNE_GATEWAY_KEYS_EVERY_MS = 60_000;

/**
 * Forgets the idempotency keys the gateway gave writes, past their minutes of retention, now and every
 * minute: the writer stores them, one for each dataset write (docs/decisions/0033). Every replica does
 * it; a delete that finds nothing left costs one index probe.
 */
function keepPruningGatewayKeys({ db, logger }: WriterDeps): NodeJS.Timeout {
  const prune = () =>
    pruneGatewayIdempotencyRecords(db).catch((error: unknown) =>
      logger.warn(
        { err: error },
        "could not forget the gateway's idempotency keys; retrying within a minute",
      ),
    );
  void prune();
  const timer = setInterval(prune, PRUNE_GATEWAY_KEYS_EVERY_MS);
  timer.unref();
  return timer;
}
