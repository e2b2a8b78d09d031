import type { Subscription } from "@svc/bus";
import { operations } from "@svc/contracts";
import { serveOperation } from "@svc/service";
import type { WriterDeps } from "../deps";
import { createDataset } from "../use-cases/create-dataset";
import { deleteDataset } from "../use-cases/delete-dataset";
import { updateDataset } from "../use-cases/update-dataset";

export function serveDatasets({ bus, db, logger }: WriterDeps): Subscription[] {
  return [
    serveOperation(bus, operations.createDataset, logger, (input, caller) =>
      createDataset(db, caller, input),
    ),
    serveOperation(bus, operations.updateDataset, logger, (input, caller) =>
      updateDataset(db, caller, input),
    ),
    serveOperation(bus, operations.deleteDataset, logger, (input, caller) =>
      deleteDataset(db, caller, input),
    ),
  ];
}
