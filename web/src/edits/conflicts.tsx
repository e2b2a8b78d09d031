import type { DatasetColumn, DatasetRow } from "@svc/sdk";
import { useState } from "react";
import { api } from "../api";
import { Dialog } from "../components/dialog";
import { cellOf, parseJson } from "../rows/cells";
import { ConflictCells } from "../rows/conflict-cells";
import type { Drafts, StagedRow } from "./drafts";

/** A row someone else changed after the draft of it began. */
export interface RowConflict {
  staged: Drafts[number];
  theirs: DatasetRow;
}

/** The rows someone else changed meanwhile: theirs beside mine, and for each row which to keep. */
export function ConflictsDialog({
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
export async function conflictsOf(
  projectSlug: string,
  datasetSlug: string,
  drafts: Drafts,
): Promise<RowConflict[]> {
  const found: RowConflict[] = [];
  const queue = [...drafts];
  const worker = async () => {
    for (let staged = queue.shift(); staged !== undefined; staged = queue.shift()) {
      const theirs = await api.datasets.getRow(projectSlug, datasetSlug, staged.rowId);
      if (theirs.version !== staged.baseVersion) found.push({ staged, theirs });
    }
  };
  await Promise.all(Array.from({ length: Math.min(8, queue.length) }, worker));
  const order = new Map(drafts.map((row, i) => [row.rowId, i]));
  return found.sort((a, b) => (order.get(a.staged.rowId) ?? 0) - (order.get(b.staged.rowId) ?? 0));
}
