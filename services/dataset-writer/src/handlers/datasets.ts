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
    serveOperation(bus, operations.createDataset, logger, (input, ctx) => createDataset(db, ctx, input)),
    serveOperation(bus, operations.updateDataset, logger, (input, ctx) => updateDataset(db, ctx, input)),
    serveOperation(bus, operations.deleteDataset, logger, (input, ctx) => deleteDataset(db, ctx, input)),
  ];
}

export function columnHandlers({ bus, db, logger }: WriterDeps): Subscription[] {
  return [
    serveOperation(bus, operations.createDatasetColumn, logger, (input, ctx) => createColumn(db, ctx, input)),
    serveOperation(bus, operations.updateDatasetColumn, logger, (input, ctx) => renameColumn(db, ctx, input)),
    serveOperation(bus, operations.deleteDatasetColumn, logger, (input, ctx) => removeColumn(db, ctx, input)),
    serveOperation(bus, operations.restoreDatasetColumn, logger, (input, ctx) =>
      restoreColumn(db, ctx, input),
    ),
    serveOperation(bus, operations.reorderDatasetColumns, logger, (input, ctx) =>
      reorderColumns(db, ctx, input),
    ),
  ];
}
