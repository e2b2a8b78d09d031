import type { Subscription } from "@svc/bus";
import { operations } from "@svc/contracts";
import { answeredWith, serveOperation } from "@svc/service";
import type { WriterDeps } from "../deps";
import { defaultGroupCommitOptions } from "../group-commit/group-commit";
import { afterImport } from "../use-cases/after-import";
import { copyDatasetRows } from "../use-cases/copy-dataset-rows";
import { deleteDatasetRows } from "../use-cases/delete-dataset-rows";
import { importDatasetRowsFromTraces } from "../use-cases/import-dataset-rows-from-traces";
import { insertDatasetRows } from "../use-cases/insert-dataset-rows";
import { restoreDatasetVersion } from "../use-cases/restore-dataset-version";
import { groupRowEdits, updateDatasetRow } from "../use-cases/update-dataset-row";
import { updateDatasetRows } from "../use-cases/update-dataset-rows";
import { refOf } from "../use-cases/versioning";
import { announced, announcer } from "./version-events";

/**
 * Every change of rows; each that makes a version announces it once committed (see version-events),
 * and waits its turn while an import writes the dataset's next version (see after-import).
 */
export function serveRows({ bus, db, logger, groupCommit }: WriterDeps): Subscription[] {
  const rowEdits = groupRowEdits(db, { ...defaultGroupCommitOptions, ...groupCommit });
  const announce = announcer(bus, logger);
  return [
    serveOperation(bus, operations.insertDatasetRows, logger, async (input, caller) =>
      announced(
        announce,
        refOf(caller, input.params),
        await afterImport(caller, () => insertDatasetRows(db, caller, input)),
      ),
    ),
    serveOperation(bus, operations.updateDatasetRow, logger, async (input, caller) =>
      announced(
        announce,
        refOf(caller, input.params),
        await afterImport(caller, () => updateDatasetRow(rowEdits, caller, input)),
      ),
    ),
    serveOperation(bus, operations.updateDatasetRows, logger, async (input, caller) =>
      announced(
        announce,
        refOf(caller, input.params),
        await afterImport(caller, () => updateDatasetRows(db, caller, input)),
      ),
    ),
    serveOperation(bus, operations.copyDatasetRows, logger, async (input, caller) => {
      const { created, ...result } = await afterImport(caller, () => copyDatasetRows(db, caller, input));
      const target = {
        projectSlug: input.body.to.projectSlug ?? input.params.projectSlug,
        datasetSlug: input.body.to.datasetSlug,
      };
      announced(announce, refOf(caller, target), result);
      // Nothing was selected, so nothing was created: 200 with the target's version.
      return created ? result : answeredWith(200, result);
    }),
    serveOperation(bus, operations.deleteDatasetRows, logger, async (input, caller) =>
      announced(
        announce,
        refOf(caller, input.params),
        await afterImport(caller, () => deleteDatasetRows(db, caller, input)),
      ),
    ),
    serveOperation(bus, operations.importDatasetRowsFromTraces, logger, async (input, caller) =>
      announced(
        announce,
        refOf(caller, input.params),
        await afterImport(caller, () => importDatasetRowsFromTraces(db, caller, input)),
      ),
    ),
    serveOperation(bus, operations.restoreDatasetVersion, logger, async (input, caller) => {
      const { result, created } = await afterImport(caller, () => restoreDatasetVersion(db, caller, input));
      if (created) announced(announce, refOf(caller, input.params), result);
      // Nothing was created: 200 with the current version, not the operation's 201.
      return created ? result : answeredWith(200, result);
    }),
  ];
}
