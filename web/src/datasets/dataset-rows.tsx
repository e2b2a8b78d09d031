import { RowGrid, type RowGridProps } from "../rows/row-grid";

/** The dataset's rows: a note while they load, why there are none (and the way to a first one), else the grid. */
export function DatasetRows({
  loading,
  filtered,
  missingExpectedOutput,
  onAddFirstRow,
  onImportFirstRows,
  grid,
}: {
  loading: boolean;
  filtered: boolean;
  /** The list keeps only the rows with no expected output. */
  missingExpectedOutput: boolean;
  /** Offered when the dataset has no rows yet and the person may add one. */
  onAddFirstRow: (() => void) | undefined;
  /** Offered beside it: the rows from a file. */
  onImportFirstRows: (() => void) | undefined;
  grid: RowGridProps;
}) {
  if (loading) {
    return (
      <p className="page-status" role="status">
        Loading rows…
      </p>
    );
  }
  if (grid.length > 0) return <RowGrid {...grid} />;
  return (
    <div className="empty">
      {filtered ? (
        <p>No row matches. {missingExpectedOutput ? "Every row has an expected output." : ""}</p>
      ) : (
        <>
          <p>This dataset has no rows yet.</p>
          <div className="empty-actions">
            {onAddFirstRow ? (
              <button type="button" className="button button-primary" onClick={onAddFirstRow}>
                Add the first row
              </button>
            ) : null}
            {onImportFirstRows ? (
              <button type="button" className="button" onClick={onImportFirstRows}>
                Import a file
              </button>
            ) : null}
          </div>
        </>
      )}
    </div>
  );
}
