import { CellText } from "../components/cell-text";
import type { StagedCell } from "./edit-session";

/** Every unsaved edit, one line each, with its undo and a link to its row. */
export function ReviewList({
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
