import type { DatasetColumn, DatasetRow } from "@svc/sdk";
import { type ColumnDef, flexRender, getCoreRowModel, useReactTable } from "@tanstack/react-table";
import { useVirtualizer } from "@tanstack/react-virtual";
import { type KeyboardEvent, useEffect, useMemo, useRef } from "react";
import { GridValue } from "../components/cell-view";
import { cellOf, compact, parseJson } from "./cells";

export const ROW_HEIGHT = 36;

export interface RowGridProps {
  columns: readonly DatasetColumn[];
  rows: readonly DatasetRow[];
  /** Rows in the dataset, when known; else the grid says how many it has loaded so far. */
  total: number | undefined;
  hasMore: boolean;
  loadingMore: boolean;
  loadMore(): void;
  selectedRowId: string | undefined;
  onSelect(rowId: string): void;
  onOpen(rowId: string): void;
  checked: ReadonlySet<string>;
  /** A checkbox was clicked; with Shift, every row from the last one clicked to this one. */
  onToggleChecked(rowId: string, range: boolean): void;
  /** The header's checkbox: every loaded row, or none. */
  onToggleAll(): void;
  selectable: boolean;
  /**
   * Unsaved edits, by row id then column identifier: each cell's editor text, shown in the grid in
   * place of the saved value and marked.
   */
  drafts?: ReadonlyMap<string, Readonly<Record<string, string>>>;
  /** The list's rows before the first one here, after a jump: row positions count from there. */
  rowIndexOffset?: number;
}

/**
 * The dataset grid: one column per active column, rows rendered only where the viewport is
 * (TanStack Virtual), the next server page fetched when the last loaded rows come into view. A
 * million rows open as fast as a hundred. Arrow keys or J/K move, Enter or F2 opens the row, Space
 * checks it and Ctrl+A checks every loaded row: the grid is one stop of the Tab key, not one per row.
 */
export function RowGrid(props: RowGridProps) {
  const { rows, columns, hasMore, loadingMore, loadMore, selectedRowId, drafts } = props;
  const scroller = useRef<HTMLDivElement>(null);

  const columnDefs = useMemo<ColumnDef<DatasetRow>[]>(
    () => [
      {
        id: "rowId",
        header: "Row",
        size: 140,
        cell: (info) => (
          <>
            <span className="row-id">{info.row.original.rowId}</span>
            {drafts?.has(info.row.original.rowId) ? <UnsavedMark label="unsaved edits" /> : null}
          </>
        ),
      },
      ...columns.map<ColumnDef<DatasetRow>>((column) => ({
        id: column.identifier,
        header: column.name,
        size: column.source.kind === "builtin" && column.source.field === "metadata" ? 200 : 260,
        cell: (info) => {
          const draft = drafts?.get(info.row.original.rowId)?.[column.identifier];
          if (draft !== undefined) return <DraftCell text={draft} />;
          return <GridValue value={cellOf(info.row.original, column)} />;
        },
      })),
    ],
    [columns, drafts],
  );
  const table = useReactTable({
    data: rows as DatasetRow[],
    columns: columnDefs,
    getCoreRowModel: getCoreRowModel(),
    getRowId: (row) => row.rowId,
  });
  const tableRows = table.getRowModel().rows;

  const virtualizer = useVirtualizer({
    count: tableRows.length + (hasMore ? 1 : 0),
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
  });
  const items = virtualizer.getVirtualItems();
  const lastIndex = items.at(-1)?.index ?? 0;
  useEffect(() => {
    if (hasMore && !loadingMore && lastIndex >= tableRows.length - 20) loadMore();
  }, [hasMore, loadingMore, lastIndex, tableRows.length, loadMore]);

  const selectedIndex =
    selectedRowId === undefined ? -1 : tableRows.findIndex((row) => row.id === selectedRowId);
  useEffect(() => {
    if (selectedIndex >= 0) virtualizer.scrollToIndex(selectedIndex, { align: "auto" });
  }, [selectedIndex, virtualizer]);

  // Keys can come faster than the page re-renders with the new selection: move from the last key's
  // row, and take the selection from the page only when it is not one this grid asked for (a deep link).
  const cursor = useRef({ rowId: selectedRowId, index: selectedIndex });
  const asked = useRef<string[]>([]);
  if (
    selectedRowId !== undefined &&
    selectedRowId !== cursor.current.rowId &&
    !asked.current.includes(selectedRowId)
  ) {
    cursor.current = { rowId: selectedRowId, index: selectedIndex };
  }
  const select = (rowId: string, index: number) => {
    cursor.current = { rowId, index };
    asked.current = [...asked.current.slice(-31), rowId];
    props.onSelect(rowId);
  };

  /**
   * The position `delta` rows from the cursor's row in the list as it is now. A row that has left the
   * list (saved out of a filtered view) left its place to the row that followed it: one row down is
   * that row, not the one after.
   */
  const stepFrom = ({ rowId, index }: { rowId: string | undefined; index: number }, delta: number) => {
    if (rowId === undefined || index < 0) return delta - 1;
    if (tableRows[index]?.id === rowId) return index + delta;
    const found = tableRows.findIndex((row) => row.id === rowId);
    if (found >= 0) return found + delta;
    return delta > 0 ? index + delta - 1 : index + delta;
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.target !== event.currentTarget) return;
    const current = cursor.current;
    const move = (delta: number) => {
      event.preventDefault();
      const next = Math.min(tableRows.length - 1, Math.max(0, stepFrom(current, delta)));
      const row = tableRows[next];
      if (row) select(row.id, next);
    };
    if (event.key === "ArrowDown" || event.key === "j") move(1);
    else if (event.key === "ArrowUp" || event.key === "k") move(-1);
    else if (event.key === "PageDown") move(10);
    else if (event.key === "PageUp") move(-10);
    else if ((event.key === "Enter" || event.key === "F2") && current.rowId !== undefined) {
      event.preventDefault();
      props.onOpen(current.rowId);
    } else if (event.key === " " && current.rowId !== undefined && props.selectable) {
      event.preventDefault();
      props.onToggleChecked(current.rowId, event.shiftKey);
    } else if (event.key === "a" && (event.ctrlKey || event.metaKey) && props.selectable) {
      event.preventDefault();
      props.onToggleAll();
    }
  };

  // Only a row that is in the page can be the active one: a selected row out of the rendered window
  // (or not in the list at all) would point a screen reader at nothing.
  const activeRendered =
    selectedRowId !== undefined && items.some((item) => tableRows[item.index]?.id === selectedRowId);

  const width = table.getTotalSize() + (props.selectable ? 40 : 0);
  const headers = table.getHeaderGroups()[0]?.headers ?? [];
  return (
    <div
      ref={scroller}
      className="grid-scroller"
      role="grid"
      aria-label="Dataset rows"
      aria-rowcount={props.total !== undefined ? props.total + 1 : hasMore ? -1 : tableRows.length + 1}
      aria-colcount={headers.length + (props.selectable ? 1 : 0)}
      aria-activedescendant={activeRendered ? `row-${selectedRowId}` : undefined}
      tabIndex={0}
      onKeyDown={onKeyDown}
    >
      <div className="grid-header" role="row" aria-rowindex={1} style={{ width }}>
        {props.selectable ? (
          <div role="columnheader" className="grid-check">
            <input
              type="checkbox"
              // One tab stop for the whole grid: its checkboxes answer Space and Ctrl+A on the grid.
              tabIndex={-1}
              aria-label="Select every loaded row"
              checked={rows.length > 0 && rows.every((row) => props.checked.has(row.rowId))}
              onChange={props.onToggleAll}
            />
          </div>
        ) : null}
        {headers.map((header) => {
          const column = columns.find((c) => c.identifier === header.id);
          return (
            <div
              key={header.id}
              role="columnheader"
              className="grid-cell grid-head"
              style={{ width: header.getSize() }}
              title={column ? `${column.name} — identifier ${column.identifier}` : "Row id"}
            >
              {flexRender(header.column.columnDef.header, header.getContext())}
            </div>
          );
        })}
      </div>
      <div className="grid-body" style={{ height: virtualizer.getTotalSize(), width }}>
        {items.map((item) => {
          const row = tableRows[item.index];
          if (!row) {
            return (
              <div
                key="loader"
                className="grid-row grid-loader"
                style={{ transform: `translateY(${item.start}px)` }}
              >
                {loadingMore ? "Loading more rows…" : ""}
              </div>
            );
          }
          const selected = row.id === selectedRowId;
          const classes = ["grid-row", selected ? "selected" : "", drafts?.has(row.id) ? "dirty" : ""];
          return (
            <div
              key={row.id}
              id={`row-${row.id}`}
              role="row"
              aria-rowindex={item.index + 2 + (props.rowIndexOffset ?? 0)}
              aria-selected={selected}
              className={classes.join(" ")}
              style={{ transform: `translateY(${item.start}px)`, height: ROW_HEIGHT }}
              onClick={() => select(row.id, item.index)}
              onDoubleClick={() => props.onOpen(row.id)}
            >
              {props.selectable ? (
                <div role="gridcell" className="grid-check">
                  <input
                    type="checkbox"
                    tabIndex={-1}
                    aria-label={`Select row ${row.id}`}
                    checked={props.checked.has(row.id)}
                    // The click, not the change, carries Shift; the state is the page's.
                    onChange={() => undefined}
                    onClick={(event) => {
                      event.stopPropagation();
                      props.onToggleChecked(row.id, event.shiftKey);
                    }}
                  />
                </div>
              ) : null}
              {row.getVisibleCells().map((cell) => (
                <div
                  key={cell.id}
                  role="gridcell"
                  className={
                    drafts?.get(row.id)?.[cell.column.id] === undefined ? "grid-cell" : "grid-cell unsaved"
                  }
                  style={{ width: cell.column.getSize() }}
                >
                  {flexRender(cell.column.columnDef.cell, cell.getContext())}
                </div>
              ))}
            </div>
          );
        })}
      </div>
    </div>
  );
}

/** The mark of an unsaved edit: seen as a dot, heard as its label. */
function UnsavedMark({ label }: { label: string }) {
  return (
    <span className="unsaved-mark" role="img" aria-label={label} title={label}>
      ●
    </span>
  );
}

/** Past this, a draft is shown as its text, not parsed again on every redraw. */
const PARSED_UP_TO = 100_000;

/** An unsaved cell: the draft's value as the grid shows any value (its text while not JSON), marked. */
function DraftCell({ text }: { text: string }) {
  const parsed = text.length <= PARSED_UP_TO ? parseJson(text) : undefined;
  return (
    <>
      <UnsavedMark label="unsaved" />
      {parsed?.ok ? (
        <GridValue value={parsed.value} />
      ) : (
        <span className="cell-text">{compact(text.slice(0, 1_000))}</span>
      )}
    </>
  );
}
