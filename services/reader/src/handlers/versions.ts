import type { Subscription } from "@svc/bus";
import { operations } from "@svc/contracts";
import type { ReaderDeps } from "../deps";
import { diffDatasetVersions } from "../use-cases/diff-dataset-versions";
import { getDatasetVersion } from "../use-cases/get-dataset-version";
import { listDatasetVersions } from "../use-cases/list-dataset-versions";
import { serveRead } from "./serve-read";

export function serveVersions(deps: ReaderDeps): Subscription[] {
  return [
    serveRead(deps, operations.listDatasetVersions, listDatasetVersions),
    serveRead(deps, operations.getDatasetVersion, getDatasetVersion),
    serveRead(deps, operations.diffDatasetVersions, diffDatasetVersions),
  ];
}
