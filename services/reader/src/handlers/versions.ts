import { type Subscription, serveOperation } from "@svc/bus";
import { operations } from "@svc/contracts";
import type { ReaderDeps } from "../service";
import { diffDatasetVersions } from "../use-cases/diff-dataset-versions";
import { getDatasetVersion } from "../use-cases/get-dataset-version";
import { listDatasetVersions } from "../use-cases/list-dataset-versions";
import { organizationOf } from "./context";

export function versionHandlers({ bus, db, logger }: ReaderDeps): Subscription[] {
  return [
    serveOperation(bus, operations.listDatasetVersions, logger, (input, ctx) =>
      listDatasetVersions(db, organizationOf(ctx), input),
    ),
    serveOperation(bus, operations.getDatasetVersion, logger, (input, ctx) =>
      getDatasetVersion(db, organizationOf(ctx), input),
    ),
    serveOperation(bus, operations.diffDatasetVersions, logger, (input, ctx) =>
      diffDatasetVersions(db, organizationOf(ctx), input),
    ),
  ];
}
