import { ErrorMessage } from "../components/errors";
import { plural } from "../words";

/** Over the grid while rows are checked: what can be done to all of them at once. */
export function SelectionBar({
  count,
  offerAll,
  filtered,
  selectingAll,
  onSelectAll,
  onSetCell,
  onCopy,
  onDelete,
  onClear,
}: {
  count: number;
  /** Every loaded row is checked and more follow: offer every row the list matches. */
  offerAll: boolean;
  filtered: boolean;
  selectingAll: { isPending: boolean; error: unknown };
  onSelectAll(): void;
  onSetCell(): void;
  onCopy(): void;
  onDelete(): void;
  onClear(): void;
}) {
  return (
    <section className="selection-bar" aria-label="Selected rows">
      <strong>{count.toLocaleString()} selected</strong>
      {offerAll ? (
        <button
          type="button"
          className="button button-quiet"
          disabled={selectingAll.isPending}
          onClick={onSelectAll}
        >
          {selectingAll.isPending ? "Selecting…" : filtered ? "Select all matching rows" : "Select all rows"}
        </button>
      ) : null}
      <button type="button" className="button" onClick={onSetCell}>
        Set a cell…
      </button>
      <button type="button" className="button" onClick={onCopy}>
        Copy to…
      </button>
      <button type="button" className="button button-danger" onClick={onDelete}>
        Delete {plural(count, "row")}
      </button>
      <button type="button" className="button button-quiet" onClick={onClear}>
        Clear selection
      </button>
      {selectingAll.error ? <ErrorMessage error={selectingAll.error} /> : null}
    </section>
  );
}
