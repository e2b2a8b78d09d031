import { ActionButton } from "../components/action-button";
import { CellText } from "../components/cell-text";
import { Table } from "../components/table";
import type { StagedCell } from "./drafts";

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
    <Table
      caption="Unsaved edits, row by row"
      className="table staged-table"
      columns={["Row", "Cell", "Now", "Yours"]}
      actions
    >
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
            <ActionButton
              label={`Undo the edit of ${cell.column.name} in row ${cell.rowId}`}
              onClick={() => onUndo(cell)}
            >
              Undo
            </ActionButton>
          </td>
        </tr>
      ))}
    </Table>
  );
}
