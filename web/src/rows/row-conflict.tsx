import { actorLabel } from "../versions/changes";
import { ConflictCells } from "./conflict-cells";
import type { Conflict } from "./row-draft";

/** A save refused because the row moved on: theirs beside mine, and the three ways out. */
export function ConflictView({
  conflict,
  ownActorId,
  saving,
  onKeepMine,
  onTakeTheirs,
  onMerge,
}: {
  conflict: Conflict;
  /** This browser's own person or session, to say "You" (in another tab) rather than a name. */
  ownActorId?: string | undefined;
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
        {conflict.by ? <ChangedBy label={actorLabel(conflict.by, ownActorId)} /> : null}
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

function ChangedBy({ label }: { label: string }) {
  if (label === "You") return <>You changed it in another tab or window. </>;
  return (
    <>
      Changed by <strong className="conflict-by">{label}</strong>.{" "}
    </>
  );
}
