import type { Subscription } from "@svc/bus";
import { operations } from "@svc/contracts";
import { serveOperation } from "@svc/service";
import type { WriterDeps } from "../deps";
import { createDatasetColumn } from "../use-cases/create-dataset-column";
import { deleteDatasetColumn } from "../use-cases/delete-dataset-column";
import { reorderDatasetColumns } from "../use-cases/reorder-dataset-columns";
import { restoreDatasetColumn } from "../use-cases/restore-dataset-column";
import { updateDatasetColumn } from "../use-cases/update-dataset-column";

export function serveColumns({ bus, db, logger }: WriterDeps): Subscription[] {
  return [
    serveOperation(bus, operations.createDatasetColumn, logger, (input, caller) =>
      createDatasetColumn(db, caller, input),
    ),
    serveOperation(bus, operations.updateDatasetColumn, logger, (input, caller) =>
      updateDatasetColumn(db, caller, input),
    ),
    serveOperation(bus, operations.deleteDatasetColumn, logger, (input, caller) =>
      deleteDatasetColumn(db, caller, input),
    ),
    serveOperation(bus, operations.restoreDatasetColumn, logger, (input, caller) =>
      restoreDatasetColumn(db, caller, input),
    ),
    serveOperation(bus, operations.reorderDatasetColumns, logger, (input, caller) =>
      reorderDatasetColumns(db, caller, input),
    ),
  ];
}
