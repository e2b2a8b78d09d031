import type { Subscription } from "@svc/bus";
import { operations } from "@svc/contracts";
import type { ReaderDeps } from "../deps";
import { getDataset } from "../use-cases/get-dataset";
import { listDatasets } from "../use-cases/list-datasets";
import { serveRead } from "./serve-read";

export function serveDatasets(deps: ReaderDeps): Subscription[] {
  return [
    serveRead(deps, operations.listDatasets, listDatasets),
    serveRead(deps, operations.getDataset, getDataset),
  ];
}
