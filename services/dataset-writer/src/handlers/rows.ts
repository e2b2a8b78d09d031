import { answeredWith, type Subscription, serveOperation } from "@svc/bus";
import { operations } from "@svc/contracts";
import type { WriterDeps } from "../service";
import { copyRows } from "../use-cases/copy-rows";
import { importTraces } from "../use-cases/import-traces";
import { restoreVersion } from "../use-cases/restore-version";
import { defaultRowEditorOptions, RowEditor } from "../use-cases/row-editor";
import { deleteRows, insertRows } from "../use-cases/rows";
import { updateRows } from "../use-cases/update-rows";

export function rowHandlers({ bus, db, logger, rowEditor }: WriterDeps): Subscription[] {
  const editor = new RowEditor(db, { ...defaultRowEditorOptions, ...rowEditor });
  return [
    serveOperation(bus, operations.insertDatasetRows, logger, (input, caller) =>
      insertRows(db, caller, input),
    ),
    serveOperation(bus, operations.updateDatasetRow, logger, (input, caller) => editor.edit(caller, input)),
    serveOperation(bus, operations.updateDatasetRows, logger, (input, caller) =>
      updateRows(db, caller, input),
    ),
    serveOperation(bus, operations.copyDatasetRows, logger, async (input, caller) => {
      const { created, ...result } = await copyRows(db, caller, input);
      // Nothing was selected, so nothing was created: 200 with the target's version.
      return created ? result : answeredWith(200, result);
    }),
    serveOperation(bus, operations.deleteDatasetRows, logger, (input, caller) =>
      deleteRows(db, caller, input),
    ),
    serveOperation(bus, operations.importDatasetRowsFromTraces, logger, (input, caller) =>
      importTraces(db, caller, input),
    ),
    serveOperation(bus, operations.restoreDatasetVersion, logger, async (input, caller) => {
      const { result, created } = await restoreVersion(db, caller, input);
      // Nothing was created: 200 with the current version, not the operation's 201.
      return created ? result : answeredWith(200, result);
    }),
  ];
}
