import { type Subscription, serveOperation } from "@svc/bus";
import { operations } from "@svc/contracts";
import type { ReaderDeps } from "../service";
import { diffDatasetVersions } from "../use-cases/diff-dataset-versions";
import { getDatasetVersion } from "../use-cases/get-dataset-version";
import { listDatasetVersions } from "../use-cases/list-dataset-versions";

export function serveVersions({ bus, db, logger }: ReaderDeps): Subscription[] {
  return [
    serveOperation(bus, operations.listDatasetVersions, logger, (input, caller) =>
      listDatasetVersions(db, caller.organizationId, input),
    ),
    serveOperation(bus, operations.getDatasetVersion, logger, (input, caller) =>
      getDatasetVersion(db, caller.organizationId, input),
    ),
    serveOperation(bus, operations.diffDatasetVersions, logger, (input, caller) =>
      diffDatasetVersions(db, caller.organizationId, input),
    ),
  ];
}
