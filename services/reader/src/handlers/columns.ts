import { type Subscription, serveOperation } from "@svc/bus";
import { operations } from "@svc/contracts";
import type { ReaderDeps } from "../service";
import { listDatasetColumns } from "../use-cases/list-dataset-columns";

export function serveColumns({ bus, db, logger }: ReaderDeps): Subscription[] {
  return [
    serveOperation(bus, operations.listDatasetColumns, logger, (input, caller) =>
      listDatasetColumns(db, caller.organizationId, input),
    ),
  ];
}
