import { ConflictCells } from "./conflict-cells";
import type { Conflict } from "./row-draft";

/** A save refused because the row moved on: theirs beside mine, and the three ways out. */
export function ConflictView({
  conflict,
  saving,
  onKeepMine,
  onTakeTheirs,
  onMerge,
}: {
  conflict: Conflict;
  saving: boolean;
  onKeepMine(): void;
  onTakeTheirs(): void;
  onMerge(): void;
}) {
  return (
    <section
      className="conflict"
      role="alertdialog"
      aria-labelledby="conflict-title"
      aria-describedby="conflict-text"
    >
      <h3 id="conflict-title">Someone else changed this row</h3>
      <p id="conflict-text">
        It is now at version {conflict.theirs.version}. Nothing was saved. Compare, then choose.
      </p>
      <ConflictCells cells={conflict.cells} className="conflict-table" />
      <div className="conflict-actions">
        <button type="button" className="button button-primary" disabled={saving} onClick={onKeepMine}>
          Keep mine
        </button>
        <button type="button" className="button" onClick={onTakeTheirs}>
          Take theirs
        </button>
        <button type="button" className="button" onClick={onMerge}>
          Merge and edit
        </button>
      </div>
    </section>
  );
}
