import type { Subscription } from "@svc/bus";
import { operations } from "@svc/contracts";
import type { ReaderDeps } from "../deps";
import { listDatasetColumns } from "../use-cases/list-dataset-columns";
import { serveRead } from "./serve-read";

export function serveColumns(deps: ReaderDeps): Subscription[] {
  return [serveRead(deps, operations.listDatasetColumns, listDatasetColumns)];
}
