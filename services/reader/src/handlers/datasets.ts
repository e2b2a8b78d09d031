import { type Subscription, serveOperation } from "@svc/bus";
import { operations } from "@svc/contracts";
import type { ReaderDeps } from "../service";
import { getDataset } from "../use-cases/get-dataset";
import { listDatasets } from "../use-cases/list-datasets";

export function serveDatasets({ bus, db, logger }: ReaderDeps): Subscription[] {
  return [
    serveOperation(bus, operations.listDatasets, logger, (input, caller) =>
      listDatasets(db, caller.organizationId, input),
    ),
    serveOperation(bus, operations.getDataset, logger, (input, caller) =>
      getDataset(db, caller.organizationId, input),
    ),
  ];
}
