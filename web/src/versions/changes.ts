import type { Actor, Cell, DatasetColumn } from "@svc/sdk";
import { sameJson } from "../rows/cells";

/** A row's cells as the diff and the row history return them. */
export interface RowCells {
  input?: Cell;
  output?: Cell;
  expectedOutput?: Cell;
  metadata?: Cell;
  custom: { [identifier: string]: Cell };
}

/** One cell that differs between two states of a row; `undefined` is a cell that is not set. */
export interface CellChange {
  column: DatasetColumn;
  before: Cell | undefined;
  after: Cell | undefined;
}

export function cellIn(cells: RowCells | null, column: DatasetColumn): Cell | undefined {
  if (cells === null) return undefined;
  if (column.source.kind === "builtin") return cells[column.source.field];
  return cells.custom[column.identifier];
}

/** The cells, in column order, whose value differs between `before` and `after` (null: no row). */
export function cellChanges(
  columns: readonly DatasetColumn[],
  before: RowCells | null,
  after: RowCells | null,
): CellChange[] {
  const changes: CellChange[] = [];
  for (const column of columns) {
    const was = cellIn(before, column);
    const is = cellIn(after, column);
    // An unset cell and a null one read the same to a curator; only a real value change counts.
    if (sameJson(was ?? null, is ?? null)) continue;
    changes.push({ column, before: was, after: is });
  }
  return changes;
}

/** Who made a version, in words: "You" for this browser's own person or session, else a name. */
export function actorLabel(actor: Actor, ownActorId: string | undefined): string {
  if ((actor.kind === "session" || actor.kind === "user") && actor.id === ownActorId) return "You";
  const short = actor.id.slice(0, 8);
  if (actor.kind === "user") return actor.name ?? `Person ${short}`;
  if (actor.kind === "apiKey") return `API key ${short}`;
  if (actor.kind === "oauth") return `Agent ${short}`;
  return `Session ${short}`;
}
