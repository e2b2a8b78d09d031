import { type Subscription, serveOperation } from "@svc/bus";
import { operations } from "@svc/contracts";
import type { ReaderDeps } from "../service";
import { getDatasetImport } from "../use-cases/get-dataset-import";
import { getDatasetRow } from "../use-cases/get-dataset-row";
import { getDatasetRowHistory } from "../use-cases/get-dataset-row-history";
import { listDatasetRows } from "../use-cases/list-dataset-rows";
import { organizationOf } from "./context";

export function rowHandlers({ bus, db, logger }: ReaderDeps): Subscription[] {
  return [
    serveOperation(bus, operations.listDatasetRows, logger, (input, ctx) =>
      listDatasetRows(db, organizationOf(ctx), input),
    ),
    serveOperation(bus, operations.getDatasetRow, logger, (input, ctx) =>
      getDatasetRow(db, organizationOf(ctx), input),
    ),
    serveOperation(bus, operations.getDatasetImport, logger, (input, ctx) =>
      getDatasetImport(db, organizationOf(ctx), input),
    ),
    serveOperation(bus, operations.getDatasetRowHistory, logger, (input, ctx) =>
      getDatasetRowHistory(db, organizationOf(ctx), input),
    ),
  ];
}
