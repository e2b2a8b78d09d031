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
    serveOperation(bus, operations.insertDatasetRows, logger, (input, ctx) => insertRows(db, ctx, input)),
    serveOperation(bus, operations.updateDatasetRow, logger, (input, ctx) => editor.edit(ctx, input)),
    serveOperation(bus, operations.updateDatasetRows, logger, (input, ctx) => updateRows(db, ctx, input)),
    serveOperation(bus, operations.copyDatasetRows, logger, async (input, ctx) => {
      const { created, ...result } = await copyRows(db, ctx, input);
      // Nothing was selected, so nothing was created: 200 with the target's version.
      return created ? result : answeredWith(200, result);
    }),
    serveOperation(bus, operations.deleteDatasetRows, logger, (input, ctx) => deleteRows(db, ctx, input)),
    serveOperation(bus, operations.importDatasetRowsFromTraces, logger, (input, ctx) =>
      importTraces(db, ctx, input),
    ),
    serveOperation(bus, operations.restoreDatasetVersion, logger, async (input, ctx) => {
      const { result, created } = await restoreVersion(db, ctx, input);
      // Nothing was created: 200 with the current version, not the operation's 201.
      return created ? result : answeredWith(200, result);
    }),
  ];
}
