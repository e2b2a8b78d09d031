import type { DatasetColumn, DatasetRow } from "@svc/sdk";
import { useState } from "react";
import { flushSync } from "react-dom";
import { api, SvcError } from "../api";
import { CellText } from "../components/cell-text";
import { isUnavailable } from "../components/connection";
import { Dialog } from "../components/dialog";
import { ErrorMessage } from "../components/errors";
import { useToasts } from "../components/toasts";
import { plural } from "../components/words";
import { cellOf, parseJson } from "../rows/cells";
import { ConflictCells } from "../rows/conflict-cells";
import {
  batchOf,
  type EditSession,
  type StagedCell,
  type StagedRow,
  stagedCells,
  withoutCell,
  withoutRows,
} from "./edit-session";

/** A row someone else changed after this session's edit of it began. */
interface RowConflict {
  staged: EditSession[number];
  theirs: DatasetRow;
}

/**
 * The edit session's bar above the grid: how many edits wait in how many rows, their review (each one
 * undoable), and Save all, which sends them as one batch edit, one version, each row with its If-Match.
 * A conflict names the rows someone else changed meanwhile and lets the person choose, row by row.
 */
export function EditSessionBar({
  projectSlug,
  datasetSlug,
  columns,
  session,
  update,
  onOpenRow,
  onSaved,
}: {
  projectSlug: string;
  datasetSlug: string;
  columns: readonly DatasetColumn[];
  session: EditSession;
  update(change: (session: EditSession) => EditSession): void;
  onOpenRow(rowId: string): void;
  onSaved(version: number): void;
}) {
  const toasts = useToasts();
  const [dialog, setDialog] = useState<"review" | "discard" | "conflicts" | undefined>();
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<unknown>();
  const [conflicts, setConflicts] = useState<RowConflict[]>([]);
  const cells = stagedCells(session, columns);
  if (session.length === 0 && dialog === undefined) return null;
  const invalid = cells.find((cell) => cell.after === undefined);

  const saveAll = async (current: EditSession) => {
    const body = batchOf(current, columns);
    if (!body) return;
    if (body.edits.length === 0) {
      update(() => []);
      return;
    }
    setSaving(true);
    setError(undefined);
    try {
      const result = await api.datasets.updateRows(projectSlug, datasetSlug, body);
      const count = stagedCells(current, columns).length;
      // The version made is on screen first; clearing the session and reloading the rows redraw the
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
    } catch (failure) {
      if (failure instanceof SvcError && failure.code === "version_mismatch") {
        try {
          const found = await conflictsOf(projectSlug, datasetSlug, current);
          if (found.length === 0) setError(failure);
          else {
            setConflicts(found);
            setDialog("conflicts");
          }
        } catch (reload) {
          setError(reload);
        }
      } else {
        setError(failure);
      }
    } finally {
      setSaving(false);
    }
  };

  return (
    <>
      {session.length > 0 ? (
        <section className="edit-session-bar" aria-label="Unsaved edits">
          <span>
            <strong>{plural(cells.length, "unsaved edit")}</strong> in {plural(session.length, "row")}
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
            onClick={() => void saveAll(session)}
          >
            {saving ? "Saving…" : "Save all"}
          </button>
          {error ? (
            <ErrorMessage
              error={error}
              lead={isUnavailable(error) ? "Not saved; your edits are kept." : undefined}
            />
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
            disabled={saving || invalid !== undefined || session.length === 0}
            onClick={() => void saveAll(session)}
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
          {plural(cells.length, "edit")} in {plural(session.length, "row")} will be lost. The dataset does not
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
          const resolved = session.flatMap((row) => {
            const version = versions.get(row.rowId);
            if (version === undefined) return [row];
            return keepMine.has(row.rowId) ? [{ ...row, baseVersion: version }] : [];
          });
          update(() => resolved);
          if (resolved.length > 0) void saveAll(resolved);
          else setDialog(undefined);
        }}
      />
    </>
  );
}

function ReviewList({
  cells,
  onUndo,
  onOpenRow,
}: {
  cells: StagedCell[];
  onUndo(cell: StagedCell): void;
  onOpenRow(rowId: string): void;
}) {
  if (cells.length === 0) return <p className="muted">No unsaved edits.</p>;
  return (
    <table className="table staged-table">
      <caption className="visually-hidden">Unsaved edits, row by row</caption>
      <thead>
        <tr>
          <th scope="col">Row</th>
          <th scope="col">Cell</th>
          <th scope="col">Now</th>
          <th scope="col">Yours</th>
          <th scope="col">
            <span className="visually-hidden">Actions</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {cells.map((cell) => (
          <tr key={`${cell.rowId}:${cell.column.identifier}`}>
            <td>
              <button type="button" className="link-button" onClick={() => onOpenRow(cell.rowId)}>
                <code>{cell.rowId}</code>
              </button>
            </td>
            <td>{cell.column.name}</td>
            <td className="diff-before">
              <CellText value={cell.before} />
            </td>
            <td className="diff-after">
              {cell.after === undefined ? (
                <span className="field-problem">not valid JSON yet</span>
              ) : (
                <CellText value={cell.after} />
              )}
            </td>
            <td className="row-actions">
              <button
                type="button"
                className="button button-quiet"
                aria-label={`Undo the edit of ${cell.column.name} in row ${cell.rowId}`}
                onClick={() => onUndo(cell)}
              >
                Undo
              </button>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function ConflictsDialog({
  open,
  conflicts,
  columns,
  saving,
  onClose,
  onResolve,
}: {
  open: boolean;
  conflicts: RowConflict[];
  columns: readonly DatasetColumn[];
  saving: boolean;
  onClose(): void;
  onResolve(keepMine: ReadonlySet<string>): void;
}) {
  const [theirs, setTheirs] = useState<ReadonlySet<string>>(new Set());
  const title =
    conflicts.length === 1
      ? `Someone else changed row ${conflicts[0]?.staged.rowId}`
      : `Someone else changed ${conflicts.length} of these rows`;
  return (
    <Dialog title={title} open={open} onClose={onClose} wide>
      <p>
        Nothing was saved. For each row, keep your edit (it replaces theirs) or take theirs (yours is
        dropped).
      </p>
      {conflicts.map(({ staged, theirs: row }) => (
        <fieldset key={staged.rowId} className="conflict-row">
          <legend>
            Row <code>{staged.rowId}</code>: now at version {row.version}, you began at {staged.baseVersion}
          </legend>
          <ConflictCells
            cells={conflictCells(staged, row, columns)}
            className="table"
            caption={`Cells of row ${staged.rowId}`}
          />
          <label className="checkbox">
            <input
              type="radio"
              name={`choice-${staged.rowId}`}
              checked={!theirs.has(staged.rowId)}
              onChange={() => setTheirs((now) => new Set([...now].filter((id) => id !== staged.rowId)))}
            />{" "}
            Keep mine
          </label>{" "}
          <label className="checkbox">
            <input
              type="radio"
              name={`choice-${staged.rowId}`}
              checked={theirs.has(staged.rowId)}
              onChange={() => setTheirs((now) => new Set([...now, staged.rowId]))}
            />{" "}
            Take theirs
          </label>
        </fieldset>
      ))}
      <div className="dialog-actions">
        <button type="button" className="button" onClick={onClose}>
          Decide later
        </button>
        <button
          type="button"
          className="button button-primary"
          disabled={saving}
          onClick={() =>
            onResolve(new Set(conflicts.map((c) => c.staged.rowId).filter((rowId) => !theirs.has(rowId))))
          }
        >
          {saving ? "Saving…" : "Save with these choices"}
        </button>
      </div>
    </Dialog>
  );
}

/** A staged row's cells beside theirs, as the row editor's conflict view shows them. */
function conflictCells(staged: StagedRow, theirs: DatasetRow, columns: readonly DatasetColumn[]) {
  return columns.flatMap((column) => {
    const text = staged.texts[column.identifier];
    if (text === undefined) return [];
    const parsed = parseJson(text);
    return [
      {
        column,
        base: staged.before[column.identifier] ?? null,
        theirs: cellOf(theirs, column),
        mine: parsed.ok ? parsed.value : text,
      },
    ];
  });
}

/** The staged rows whose version moved on since their editing began, read a few at a time. */
async function conflictsOf(
  projectSlug: string,
  datasetSlug: string,
  session: EditSession,
): Promise<RowConflict[]> {
  const found: RowConflict[] = [];
  const queue = [...session];
  const worker = async () => {
    for (let staged = queue.shift(); staged !== undefined; staged = queue.shift()) {
      const theirs = await api.datasets.getRow(projectSlug, datasetSlug, staged.rowId);
      if (theirs.version !== staged.baseVersion) found.push({ staged, theirs });
    }
  };
  await Promise.all(Array.from({ length: Math.min(8, queue.length) }, worker));
  const order = new Map(session.map((row, i) => [row.rowId, i]));
  return found.sort((a, b) => (order.get(a.staged.rowId) ?? 0) - (order.get(b.staged.rowId) ?? 0));
}

/** Runs once the next frame has been painted. */
function afterPaint(run: () => void): void {
  requestAnimationFrame(() => setTimeout(run, 0));
}
