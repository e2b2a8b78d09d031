import type { DatasetColumn, DatasetRow } from "@svc/sdk";
import { ConfirmDialog } from "../components/dialog";
import { useToasts } from "../components/toasts";
import { AddRowDialog } from "../rows/add-row-dialog";
import { namedRows } from "../rows/selection";
import { RestoreDialog } from "../versions/restore-dialog";
import { plural } from "../words";
import { CopyDialog, SetCellDialog } from "./bulk-dialogs";
import { ColumnsDialog } from "./columns-dialog";
import { ImportDialog } from "./import-dialog";
import { madeVersion } from "./import-status";

export type DatasetDialog = "columns" | "add-row" | "delete-rows" | "import" | "set-cell" | "copy";

/** The dataset page's dialogs, at most one open: each does its change and says what it did. */
export function DatasetDialogs({
  open,
  onClose,
  projectSlug,
  datasetSlug,
  readOnly,
  columns,
  currentVersion,
  checked,
  checkedRows,
  restoring,
  onRestoreClose,
  onRestored,
  deletion,
  onDelete,
  refresh,
  onRowAdded,
}: {
  open: DatasetDialog | undefined;
  onClose(): void;
  projectSlug: string;
  datasetSlug: string;
  readOnly: boolean;
  columns: readonly DatasetColumn[];
  currentVersion: number;
  /** The checked rows' ids, and those of them whose cells are at hand. */
  checked: ReadonlySet<string>;
  checkedRows: DatasetRow[];
  /** The earlier version being restored, if any. */
  restoring: number | undefined;
  onRestoreClose(): void;
  onRestored(): void;
  deletion: { isPending: boolean; error: unknown };
  onDelete(): void;
  refresh(): Promise<void>;
  onRowAdded(rowId: string): void;
}) {
  const toasts = useToasts();
  return (
    <>
      <ColumnsDialog
        open={open === "columns"}
        projectSlug={projectSlug}
        datasetSlug={datasetSlug}
        readOnly={readOnly}
        onClose={onClose}
        onChanged={refresh}
      />
      <AddRowDialog
        open={open === "add-row"}
        projectSlug={projectSlug}
        datasetSlug={datasetSlug}
        columns={columns}
        onClose={onClose}
        onAdded={async (rowId, version) => {
          onClose();
          toasts.show({ kind: "success", message: `Added row ${rowId} as version ${version}` });
          await refresh();
          onRowAdded(rowId);
        }}
      />
      <ImportDialog
        open={open === "import"}
        projectSlug={projectSlug}
        datasetSlug={datasetSlug}
        columns={columns}
        onClose={onClose}
        onImported={(job) => {
          // An import that changed nothing says so in its dialog, and makes no version to announce.
          const made = madeVersion(job);
          if (made) toasts.show({ kind: "success", message: made });
          void refresh();
        }}
      />
      <SetCellDialog
        open={open === "set-cell"}
        projectSlug={projectSlug}
        datasetSlug={datasetSlug}
        columns={columns}
        rows={checkedRows}
        onClose={onClose}
        onDone={(version, changed) => {
          onClose();
          toasts.show({
            kind: "success",
            message:
              version === null
                ? "Nothing changed: every selected row already held that value"
                : `Set the cell in ${plural(changed, "row")} as version ${version}`,
          });
          void refresh();
        }}
      />
      <CopyDialog
        open={open === "copy"}
        projectSlug={projectSlug}
        datasetSlug={datasetSlug}
        rowIds={[...checked]}
        onClose={onClose}
        onDone={(target, version, copied) => {
          onClose();
          toasts.show({
            kind: "success",
            message:
              version === null
                ? `Nothing was copied to ${target.name}`
                : `Copied ${plural(copied, "row")} to ${target.name} as its version ${version}`,
          });
        }}
      />
      <RestoreDialog
        projectSlug={projectSlug}
        datasetSlug={datasetSlug}
        version={restoring}
        currentVersion={currentVersion}
        onClose={onRestoreClose}
        onRestored={onRestored}
      />
      <ConfirmDialog
        title={`Delete ${plural(checked.size, "row")}?`}
        open={open === "delete-rows"}
        confirmLabel={`Delete ${plural(checked.size, "row")}`}
        busy={deletion.isPending}
        body={
          <>
            <p>
              {checked.size === 1 ? "Row" : "Rows"} {namedRows([...checked])}.
            </p>
            <p>
              They leave the current version as one new version; earlier versions keep them, and restoring one
              brings them back.
            </p>
          </>
        }
        error={deletion.error}
        onClose={onClose}
        onConfirm={onDelete}
      />
    </>
  );
}
