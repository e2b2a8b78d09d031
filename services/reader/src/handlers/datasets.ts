import { type Subscription, serveOperation } from "@svc/bus";
import { operations } from "@svc/contracts";
import type { ReaderDeps } from "../service";
import { getDataset } from "../use-cases/get-dataset";
import { listDatasets } from "../use-cases/list-datasets";
import { organizationOf } from "./context";

export function datasetHandlers({ bus, db, logger }: ReaderDeps): Subscription[] {
  return [
    serveOperation(bus, operations.listDatasets, logger, (input, ctx) =>
      listDatasets(db, organizationOf(ctx), input),
    ),
    serveOperation(bus, operations.getDataset, logger, (input, ctx) =>
      getDataset(db, organizationOf(ctx), input),
    ),
  ];
}
