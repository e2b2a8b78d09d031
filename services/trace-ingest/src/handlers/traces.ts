import type { Subscription } from "@svc/bus";
import { operations } from "@svc/contracts";
import { serveOperation } from "@svc/service";
import type { TraceIngestDeps } from "../deps";
import type { FoldRunner } from "../jobs/fold-runner";
import { deleteModelPrice } from "../use-cases/delete-model-price";
import { ingestTraces } from "../use-cases/ingest-traces";
import { listModelPrices } from "../use-cases/list-model-prices";
import { setModelPrice } from "../use-cases/set-model-price";

export function serveTraces({ bus, db, logger }: TraceIngestDeps, folds: FoldRunner): Subscription[] {
  return [
    serveOperation(bus, operations.ingestTraces, logger, async (input, caller) => {
      const result = await ingestTraces(db, caller, input);
      folds.wake();
      return result;
    }),
    serveOperation(bus, operations.listModelPrices, logger, (_input, caller) => listModelPrices(db, caller)),
    serveOperation(bus, operations.setModelPrice, logger, (input, caller) =>
      setModelPrice(db, caller, input),
    ),
    serveOperation(bus, operations.deleteModelPrice, logger, (input, caller) =>
      deleteModelPrice(db, caller, input),
    ),
  ];
}
