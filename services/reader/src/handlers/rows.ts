import type { Subscription } from "@svc/bus";
import { operations } from "@svc/contracts";
import type { ReaderDeps } from "../deps";
import { countDatasetRows, RowCounts } from "../use-cases/count-dataset-rows";
import { getDatasetImport } from "../use-cases/get-dataset-import";
import { getDatasetRow } from "../use-cases/get-dataset-row";
import { getDatasetRowHistory } from "../use-cases/get-dataset-row-history";
import { listDatasetRows } from "../use-cases/list-dataset-rows";
import { serveRead } from "./serve-read";

export function serveRows(deps: ReaderDeps): Subscription[] {
  return [
    serveRead(deps, operations.listDatasetRows, listDatasetRows),
    serveRead(deps, operations.countDatasetRows, countDatasetRows(new RowCounts())),
    serveRead(deps, operations.getDatasetRow, getDatasetRow),
    serveRead(deps, operations.getDatasetImport, getDatasetImport),
    serveRead(deps, operations.getDatasetRowHistory, getDatasetRowHistory),
  ];
}
