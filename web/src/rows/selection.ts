import type { Cell, DatasetColumn, DatasetRow, UpdateDatasetRowsBody } from "@svc/sdk";
import { cellOf, sameJson } from "./cells";

/**
 * A click on a row's checkbox: it toggles that row; with Shift, every row between the last row
 * clicked (the anchor) and this one takes the state this row takes, as in a file manager.
 */
export function toggleChecked(
  checked: ReadonlySet<string>,
  rowId: string,
  range: boolean,
  anchor: string | undefined,
  order: readonly string[],
): ReadonlySet<string> {
  const next = new Set(checked);
  const on = !checked.has(rowId);
  const from = anchor === undefined ? -1 : order.indexOf(anchor);
  const to = order.indexOf(rowId);
  if (range && from !== -1 && to !== -1) {
    for (let i = Math.min(from, to); i <= Math.max(from, to); i++) {
      const id = order[i] as string;
      if (on) next.add(id);
      else next.delete(id);
    }
    return next;
  }
  if (on) next.add(rowId);
  else next.delete(rowId);
  return next;
}

/**
 * What a selection is of: the rows that the list's search, filters and version let through. When it
 * changes, the checked rows go, so that a bulk change never reaches rows the view no longer shows;
 * the order of the list and where it starts do not change what it holds, and keep them.
 */
export function selectionScope(query: Record<string, unknown>): string {
  const { sortDirection: _order, cursor: _cursor, limit: _limit, ...scope } = query;
  return JSON.stringify(Object.entries(scope).sort(([a], [b]) => a.localeCompare(b)));
}

/** The rows a change will reach, named: every id up to `max`, then how many more. */
export function namedRows(rowIds: readonly string[], max = 10): string {
  const named = rowIds.slice(0, max);
  const more = rowIds.length - named.length;
  if (more > 0) return `${named.join(", ")} and ${more.toLocaleString()} more`;
  if (named.length <= 1) return named.join("");
  return `${named.slice(0, -1).join(", ")} and ${named.at(-1)}`;
}

/** Where a bulk "set a cell" takes its value: one JSON value, or another cell of the same row. */
export type CellSource = { kind: "value"; value: Cell } | { kind: "cell"; column: DatasetColumn };

/** One row's change, for the preview. */
export interface CellChangePreview {
  rowId: string;
  now: Cell | undefined;
  next: Cell;
}

/** The rows whose cell would change, with their values now and after; rows it leaves as they are are left out. */
export function previewSetCell(
  rows: readonly DatasetRow[],
  target: DatasetColumn,
  source: CellSource,
): CellChangePreview[] {
  return rows.flatMap((row) => {
    const now = cellOf(row, target);
    const next = source.kind === "value" ? source.value : (cellOf(row, source.column) ?? null);
    return sameJson(now ?? null, next) ? [] : [{ rowId: row.rowId, now, next }];
  });
}

/** The batch edit of those changes, each with its row's version as If-Match: one version. */
export function setCellBatch(
  changes: readonly CellChangePreview[],
  rows: readonly DatasetRow[],
  target: DatasetColumn,
): UpdateDatasetRowsBody {
  const versions = new Map(rows.map((row) => [row.rowId, row.version]));
  return {
    edits: changes.map((change) => {
      const edit: UpdateDatasetRowsBody["edits"][number] = {
        rowId: change.rowId,
        ifMatch: versions.get(change.rowId) ?? 0,
      };
      if (target.source.kind === "builtin") edit[target.source.field] = change.next;
      else edit.custom = { [target.identifier]: change.next };
      return edit;
    }),
  };
}
