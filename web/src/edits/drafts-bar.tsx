import type { DatasetColumn } from "@svc/sdk";
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { flushSync } from "react-dom";
import { api } from "../api";
import { Dialog } from "../components/dialog";
import { ErrorMessage } from "../components/errors";
import { useToasts } from "../components/toasts";
import { plural } from "../words";
import { ConflictsDialog, conflictsOf, type RowConflict } from "./conflicts";
import { batchOf, type Drafts, stagedCells, withoutCell, withoutRows } from "./drafts";
import { notSavedLead } from "./not-saved";
import { ReviewList } from "./review-list";
import { writeIfUnchanged } from "./write-if-unchanged";

/**
 * The drafts' bar above the grid: how many edits wait in how many rows, their review (each one
 * undoable), and Save all, which sends them as one batch edit, one version, each row with its If-Match.
 * A conflict names the rows someone else changed meanwhile and lets the person choose, row by row.
 */
export function DraftsBar({
  projectSlug,
  datasetSlug,
  columns,
  drafts,
  unstored,
  update,
  onOpenRow,
  onSaved,
}: {
  projectSlug: string;
  datasetSlug: string;
  columns: readonly DatasetColumn[];
  drafts: Drafts;
  /** Why the browser did not keep the drafts for the next visit, when it did not. */
  unstored: string | undefined;
  update(change: (drafts: Drafts) => Drafts): void;
  onOpenRow(rowId: string): void;
  onSaved(version: number): void;
}) {
  const toasts = useToasts();
  const [dialog, setDialog] = useState<"review" | "discard" | "conflicts" | undefined>();
  const [conflicts, setConflicts] = useState<RowConflict[]>([]);
  const save = useMutation({
    mutationFn: ({ current, body }: { current: Drafts; body: Batch }) =>
      writeIfUnchanged(
        async () => {
          const result = await api.datasets.updateRows(projectSlug, datasetSlug, body);
          const count = stagedCells(current, columns).length;
          // The version made is on screen first; clearing the drafts and reloading the rows redraw the
          // grid, which waits until that frame is painted.
          flushSync(() => {
            setDialog(undefined);
            toasts.show({
              kind: "success",
              message:
                result.versionId === null
                  ? "Nothing to save: every staged cell already holds its value"
                  : `Saved ${plural(count, "edit")} in ${plural(current.length, "row")} as version ${result.version}`,
            });
          });
          afterPaint(() => {
            update((now) => withoutRows(now, new Set(current.map((row) => row.rowId))));
            onSaved(result.version);
          });
        },
        async (mismatch) => {
          const found = await conflictsOf(projectSlug, datasetSlug, current);
          // No staged row's version moved on: the mismatch itself is what to show.
          if (found.length === 0) throw mismatch;
          setConflicts(found);
          setDialog("conflicts");
        },
      ),
  });
  const saving = save.isPending;
  const error = save.error;
  const cells = stagedCells(drafts, columns);
  if (drafts.length === 0 && dialog === undefined) return null;
  const invalid = cells.find((cell) => cell.after === undefined);

  const saveAll = (current: Drafts) => {
    const body = batchOf(current, columns);
    if (!body) return;
    if (body.edits.length === 0) {
      update(() => []);
      return;
    }
    save.mutate({ current, body });
  };

  return (
    <>
      {drafts.length > 0 ? (
        <section className="drafts-bar" aria-label="Unsaved edits">
          <span>
            <strong>{plural(cells.length, "unsaved edit")}</strong> in {plural(drafts.length, "row")}
          </span>
          <button type="button" className="button button-quiet" onClick={() => setDialog("review")}>
            Review
          </button>
          <button type="button" className="button" onClick={() => setDialog("discard")}>
            Discard all
          </button>
          <button
            type="button"
            className="button button-primary"
            disabled={saving || invalid !== undefined}
            title={invalid ? `Row ${invalid.rowId}: ${invalid.column.name} is not valid JSON` : undefined}
            onClick={() => saveAll(drafts)}
          >
            {saving ? "Saving…" : "Save all"}
          </button>
          {unstored ? (
            <p className="drafts-unstored" role="alert">
              {cells.length === 1
                ? `This edit is not kept across reloads: ${unstored}. It stays on this page; save it before you leave.`
                : `These edits are not kept across reloads: ${unstored}. They stay on this page; save them before you leave.`}
            </p>
          ) : null}
          {error ? (
            <ErrorMessage error={error} lead={notSavedLead(error, batchOf(drafts, columns), "many")} />
          ) : null}
        </section>
      ) : null}

      <Dialog title="Unsaved edits" open={dialog === "review"} onClose={() => setDialog(undefined)} wide>
        <ReviewList
          cells={cells}
          onUndo={(cell) => update((now) => withoutCell(now, cell.rowId, cell.column.identifier))}
          onOpenRow={(rowId) => {
            setDialog(undefined);
            onOpenRow(rowId);
          }}
        />
        <div className="dialog-actions">
          <button type="button" className="button" onClick={() => setDialog(undefined)}>
            Close
          </button>
          <button
            type="button"
            className="button button-primary"
            disabled={saving || invalid !== undefined || drafts.length === 0}
            onClick={() => saveAll(drafts)}
          >
            Save all as one version
          </button>
        </div>
      </Dialog>

      <Dialog
        title="Discard every unsaved edit?"
        open={dialog === "discard"}
        onClose={() => setDialog(undefined)}
      >
        <p>
          {plural(cells.length, "edit")} in {plural(drafts.length, "row")} will be lost. The dataset does not
          change.
        </p>
        <div className="dialog-actions">
          <button type="button" className="button" onClick={() => setDialog(undefined)}>
            Keep them
          </button>
          <button
            type="button"
            className="button button-danger"
            onClick={() => {
              update(() => []);
              setDialog(undefined);
            }}
          >
            Discard edits
          </button>
        </div>
      </Dialog>

      <ConflictsDialog
        open={dialog === "conflicts"}
        conflicts={conflicts}
        columns={columns}
        saving={saving}
        onClose={() => setDialog(undefined)}
        onResolve={(keepMine) => {
          // Mine: the row's edit now starts from their version. Theirs: the row's edits are dropped.
          const versions = new Map(conflicts.map((c) => [c.staged.rowId, c.theirs.version]));
          const resolved = drafts.flatMap((row) => {
            const version = versions.get(row.rowId);
            if (version === undefined) return [row];
            return keepMine.has(row.rowId) ? [{ ...row, baseVersion: version }] : [];
          });
          update(() => resolved);
          if (resolved.length > 0) saveAll(resolved);
          else setDialog(undefined);
        }}
      />
    </>
  );
}

/** One batch edit of the drafts' rows, as Save all sends it. */
type Batch = NonNullable<ReturnType<typeof batchOf>>;

/** Runs once the next frame has been painted. */
function afterPaint(run: () => void): void {
  requestAnimationFrame(() => setTimeout(run, 0));
}
