import { type Subscription, serveOperation } from "@svc/bus";
import { operations } from "@svc/contracts";
import type { WriterDeps } from "../service";
import {
  createColumn,
  removeColumn,
  renameColumn,
  reorderColumns,
  restoreColumn,
} from "../use-cases/columns";
import { createDataset, deleteDataset, updateDataset } from "../use-cases/datasets";

export function datasetHandlers({ bus, db, logger }: WriterDeps): Subscription[] {
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

export function columnHandlers({ bus, db, logger }: WriterDeps): Subscription[] {
  return [
    serveOperation(bus, operations.createDatasetColumn, logger, (input, caller) =>
      createColumn(db, caller, input),
    ),
    serveOperation(bus, operations.updateDatasetColumn, logger, (input, caller) =>
      renameColumn(db, caller, input),
    ),
    serveOperation(bus, operations.deleteDatasetColumn, logger, (input, caller) =>
      removeColumn(db, caller, input),
    ),
    serveOperation(bus, operations.restoreDatasetColumn, logger, (input, caller) =>
      restoreColumn(db, caller, input),
    ),
    serveOperation(bus, operations.reorderDatasetColumns, logger, (input, caller) =>
      reorderColumns(db, caller, input),
    ),
  ];
}
