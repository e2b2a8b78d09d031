import { type Subscription, serveOperation } from "@svc/bus";
import { operations } from "@svc/contracts";
import type { ReaderDeps } from "../service";
import { getDatasetImport } from "../use-cases/get-dataset-import";
import { getDatasetRow } from "../use-cases/get-dataset-row";
import { getDatasetRowHistory } from "../use-cases/get-dataset-row-history";
import { listDatasetRows } from "../use-cases/list-dataset-rows";

export function serveRows({ bus, db, logger }: ReaderDeps): Subscription[] {
  return [
    serveOperation(bus, operations.listDatasetRows, logger, (input, caller) =>
      listDatasetRows(db, caller.organizationId, input),
    ),
    serveOperation(bus, operations.getDatasetRow, logger, (input, caller) =>
      getDatasetRow(db, caller.organizationId, input),
    ),
    serveOperation(bus, operations.getDatasetImport, logger, (input, caller) =>
      getDatasetImport(db, caller.organizationId, input),
    ),
    serveOperation(bus, operations.getDatasetRowHistory, logger, (input, caller) =>
      getDatasetRowHistory(db, caller.organizationId, input),
    ),
  ];
}
