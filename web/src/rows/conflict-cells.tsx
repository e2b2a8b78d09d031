import { Table } from "../components/table";
import { compact } from "./cells";
import type { Conflict } from "./row-draft";

/** A conflict's cells side by side: when the person began, theirs now, and the person's own. */
export function ConflictCells({
  cells,
  className,
  caption,
}: {
  cells: Conflict["cells"];
  className: string;
  caption?: string;
}) {
  return (
    <Table
      caption={caption || undefined}
      className={className}
      columns={["Cell", "When you began", "Theirs (now)", "Yours"]}
    >
      {cells.map((cell) => (
        <tr key={cell.column.identifier}>
          <th scope="row">{cell.column.name}</th>
          <td>
            <code>{compact(cell.base, 200)}</code>
          </td>
          <td>
            <code>{compact(cell.theirs, 200)}</code>
          </td>
          <td>
            <code>{compact(cell.mine, 200)}</code>
          </td>
        </tr>
      ))}
    </Table>
  );
}
