import type { DatasetColumn, DatasetRow } from "@svc/sdk";
import {
  type Column,
  type ColumnDef,
  type ColumnSizingState,
  getCoreRowModel,
  type Updater,
  useReactTable,
} from "@tanstack/react-table";
import {
  type CSSProperties,
  type KeyboardEvent,
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
} from "react";
import { GridValue } from "../components/cell-view";
import { cellOf, compact, parseJson } from "./cells";
import {
  clampWidth,
  DEFAULT_LAYOUT,
  defaultWidth,
  type GridLayout,
  MAX_WIDTH,
  MIN_WIDTH,
  pinnedInOrder,
  ROW_ID_COLUMN,
} from "./grid-layout";
import {
  type Extent,
  HEADER_HEIGHT,
  ROW_HEIGHT,
  type RowSpan,
  rowOffset,
  rowsInView,
  scrollHeightOf,
  scrollTopFor,
  scrollTopToShow,
} from "./row-window";

export { ROW_HEIGHT } from "./row-window";

/** The width of the checkbox column, when rows can be checked. */
const CHECK_WIDTH = 40;
/** Rows drawn beyond the view on each side, so that a small scroll shows no gap. */
const OVERSCAN = 8;
/** The table holds the columns' sizes, visibility and pinning; the rows are drawn by position. */
const NO_ROWS: DatasetRow[] = [];

export interface RowGridProps {
  columns: readonly DatasetColumn[];
  /** Rows the scroll area spans: the list's length, or for a filtered list as far as it is known. */
  length: number;
  /** `length` is the whole list's; else more rows may follow the last one. */
  exact: boolean;
  /** The row at a position, when read; a position not read yet is drawn as a placeholder. */
  rowAt(index: number): DatasetRow | undefined;
  /** A read row's position, or -1. */
  indexOf(rowId: string): number;
  /** The rows read around the view: what the header's checkbox and Ctrl+A check. */
  rows: readonly DatasetRow[];
  /** The rows in view changed (a scroll, a resize): their pages are read. */
  onView(span: RowSpan): void;
  /** A jump: the position brought to the top of the view, once for each `serial`. */
  jump?: { index: number; serial: number } | undefined;
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
  /** Column widths, hidden and pinned columns; a dragged header edge changes the widths. */
  layout?: GridLayout;
  onLayout?(change: (layout: GridLayout) => GridLayout): void;
}

/**
 * The dataset grid: a scroll area as tall as the whole list, however long, with only the rows in view
 * drawn and their server pages read where the scroll lands (a row not read yet is a placeholder). The
 * columns can be resized by their header's edge, hidden and pinned to the left (the layout). Arrow keys
 * or J/K move, Page Up/Down by a view, Home and End to the ends, Enter or F2 opens the row, Space
 * checks it and Ctrl+A checks every loaded row: the grid is one stop of the Tab key, not one per row.
 */
export function RowGrid(props: RowGridProps) {
  const { columns, length, rowAt, indexOf, selectedRowId, drafts, onView } = props;
  const layout = props.layout ?? DEFAULT_LAYOUT;
  const scroller = useRef<HTMLDivElement>(null);
  const { table, shownColumns, headers } = useColumns(columns, layout, props.onLayout);

  const [viewport, setViewport] = useState({ top: 0, height: 0 });
  const extent: Extent = { count: length, height: Math.max(ROW_HEIGHT, viewport.height) };
  const latest = useRef({ extent, rowAt });
  useLayoutEffect(() => {
    latest.current = { extent, rowAt };
  });
  useLayoutEffect(() => {
    const element = scroller.current;
    if (!element) return;
    const measure = () =>
      setViewport({ top: element.scrollTop, height: Math.max(0, element.clientHeight - HEADER_HEIGHT) });
    measure();
    if (typeof ResizeObserver === "undefined") return;
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  const onScroll = () => {
    const element = scroller.current;
    if (element) setViewport((now) => ({ ...now, top: element.scrollTop }));
  };
  /** Scrolls to `top`, and draws from there at once rather than at the next scroll event. */
  const scrollTo = useCallback((top: number) => {
    const element = scroller.current;
    if (!element) return;
    element.scrollTop = top;
    setViewport((now) => ({ ...now, top: element.scrollTop }));
  }, []);

  const span = rowsInView(viewport.top, extent, OVERSCAN);
  const first = span?.first ?? 0;
  const last = span?.last ?? -1;
  useEffect(() => {
    if (last >= first) onView({ first, last });
  }, [first, last, onView]);

  // A jump brings its position to the top, when the grid opens and at each new jump.
  const jumpSerial = props.jump?.serial;
  const jumpIndex = props.jump?.index;
  useLayoutEffect(() => {
    const element = scroller.current;
    if (!element || jumpIndex === undefined || jumpSerial === undefined) return;
    const height = Math.max(ROW_HEIGHT, element.clientHeight - HEADER_HEIGHT);
    scrollTo(scrollTopFor(jumpIndex, { count: latest.current.extent.count, height }));
  }, [jumpSerial, jumpIndex, scrollTo]);

  const selectedIndex = selectedRowId === undefined ? -1 : indexOf(selectedRowId);
  useEffect(() => {
    const element = scroller.current;
    if (element && selectedIndex >= 0)
      scrollTo(scrollTopToShow(selectedIndex, element.scrollTop, latest.current.extent));
  }, [selectedIndex, scrollTo]);

  // Keys can come faster than the page re-renders with the new selection: move from the last key's
  // row, and take the selection from the page only when it is not one this grid asked for (a deep link).
  const cursor = useRef<{ rowId: string | undefined; index: number }>({
    rowId: selectedRowId,
    index: selectedIndex,
  });
  const asked = useRef<string[]>([]);
  if (
    selectedRowId !== undefined &&
    selectedRowId !== cursor.current.rowId &&
    !asked.current.includes(selectedRowId)
  ) {
    cursor.current = { rowId: selectedRowId, index: selectedIndex };
  }
  const onSelect = props.onSelect;
  const select = useCallback(
    (rowId: string, index: number) => {
      cursor.current = { rowId, index };
      asked.current = [...asked.current.slice(-31), rowId];
      onSelect(rowId);
    },
    [onSelect],
  );
  // A key that lands on a row not read yet selects it once its page is in.
  const pending = useRef<number | undefined>(undefined);
  useEffect(() => {
    const index = pending.current;
    const row = index === undefined ? undefined : rowAt(index);
    if (index === undefined || !row || cursor.current.index !== index) return;
    pending.current = undefined;
    select(row.rowId, index);
  });

  /**
   * The position `delta` rows from the cursor's row in the list as it is now. A row that has left the
   * list (saved out of a filtered view) left its place to the row that followed it: one row down is
   * that row, not the one after.
   */
  const stepFrom = ({ rowId, index }: { rowId: string | undefined; index: number }, delta: number) => {
    if (index < 0) return delta - 1;
    if (rowId === undefined || rowAt(index)?.rowId === rowId) return index + delta;
    const found = indexOf(rowId);
    if (found >= 0) return found + delta;
    return delta > 0 ? index + delta - 1 : index + delta;
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.target !== event.currentTarget) return;
    const current = cursor.current;
    const go = (target: number) => {
      event.preventDefault();
      if (length === 0) return;
      const index = Math.min(length - 1, Math.max(0, target));
      const row = rowAt(index);
      pending.current = row ? undefined : index;
      if (row) select(row.rowId, index);
      else cursor.current = { rowId: undefined, index };
      scrollTo(scrollTopToShow(index, viewport.top, extent));
    };
    const page = Math.max(1, Math.floor(extent.height / ROW_HEIGHT) - 1);
    if (event.key === "ArrowDown" || event.key === "j") go(stepFrom(current, 1));
    else if (event.key === "ArrowUp" || event.key === "k") go(stepFrom(current, -1));
    else if (event.key === "PageDown") go(stepFrom(current, page));
    else if (event.key === "PageUp") go(stepFrom(current, -page));
    else if (event.key === "Home") go(0);
    else if (event.key === "End") go(length - 1);
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

  const checkWidth = props.selectable ? CHECK_WIDTH : 0;
  const pinnedStyle = (column: Column<DatasetRow>): CSSProperties =>
    column.getIsPinned() === "left" ? { left: checkWidth + column.getStart("left") } : {};
  const pinnedClass = (column: Column<DatasetRow>) =>
    column.getIsPinned() === "left"
      ? column.getIsLastColumn("left")
        ? " pinned pinned-last"
        : " pinned"
      : "";
  const width = table.getTotalSize() + checkWidth;
  const byId = new Map(columns.map((column) => [column.identifier, column]));

  // Each row once: two pages read at different moments may both hold a row that moved between them.
  const drawn = new Set<string>();
  const positions: number[] = [];
  for (let index = first; index <= last; index++) positions.push(index);
  const activeRendered =
    selectedRowId !== undefined && positions.some((index) => rowAt(index)?.rowId === selectedRowId);

  return (
    <div
      ref={scroller}
      className="grid-scroller"
      role="grid"
      aria-label="Dataset rows"
      aria-rowcount={props.exact ? length + 1 : -1}
      aria-colcount={shownColumns.length + (props.selectable ? 1 : 0)}
      aria-activedescendant={activeRendered ? `row-${selectedRowId}` : undefined}
      tabIndex={0}
      onKeyDown={onKeyDown}
      onScroll={onScroll}
    >
      <div className="grid-header" role="row" aria-rowindex={1} style={{ width, height: HEADER_HEIGHT }}>
        {props.selectable ? (
          <div role="columnheader" className="grid-check">
            <input
              type="checkbox"
              // One tab stop for the whole grid: its checkboxes answer Space and Ctrl+A on the grid.
              tabIndex={-1}
              aria-label="Select every loaded row"
              checked={props.rows.length > 0 && props.rows.every((row) => props.checked.has(row.rowId))}
              onChange={props.onToggleAll}
            />
          </div>
        ) : null}
        {headers.map((header) => {
          const column = byId.get(header.id);
          return (
            <div
              key={header.id}
              role="columnheader"
              className={`grid-cell grid-head${pinnedClass(header.column)}`}
              style={{ width: header.getSize(), ...pinnedStyle(header.column) }}
              title={column ? `${column.name} — identifier ${column.identifier}` : "Row id"}
            >
              <span>{column?.name ?? "Row"}</span>
              <div
                className={header.column.getIsResizing() ? "col-resizer resizing" : "col-resizer"}
                aria-hidden="true"
                title="Drag to resize; double-click for the default width"
                onMouseDown={header.getResizeHandler()}
                onTouchStart={header.getResizeHandler()}
                onDoubleClick={() => header.column.resetSize()}
              />
            </div>
          );
        })}
      </div>
      <div className="grid-body" style={{ height: scrollHeightOf(length), width }}>
        {positions.map((index) => {
          const top = rowOffset(index, viewport.top, extent);
          const found = rowAt(index);
          const row = found && !drawn.has(found.rowId) ? found : undefined;
          if (!row) {
            return (
              <div
                key={index}
                role="row"
                aria-rowindex={index + 2}
                aria-busy="true"
                className="grid-row grid-placeholder"
                style={{ transform: `translateY(${top}px)`, height: ROW_HEIGHT }}
              >
                {props.selectable ? <div role="gridcell" className="grid-check" /> : null}
                {shownColumns.map((column) => (
                  <div
                    key={column.id}
                    role="gridcell"
                    className={`grid-cell${pinnedClass(column)}`}
                    style={{ width: column.getSize(), ...pinnedStyle(column) }}
                  >
                    <span className="placeholder-bar" />
                  </div>
                ))}
              </div>
            );
          }
          drawn.add(row.rowId);
          const selected = row.rowId === selectedRowId;
          const classes = ["grid-row", selected ? "selected" : "", drafts?.has(row.rowId) ? "dirty" : ""];
          return (
            <div
              key={index}
              id={`row-${row.rowId}`}
              role="row"
              aria-rowindex={index + 2}
              aria-selected={selected}
              className={classes.join(" ")}
              style={{ transform: `translateY(${top}px)`, height: ROW_HEIGHT }}
              onClick={() => select(row.rowId, index)}
              onDoubleClick={() => props.onOpen(row.rowId)}
            >
              {props.selectable ? (
                <div role="gridcell" className="grid-check">
                  <input
                    type="checkbox"
                    tabIndex={-1}
                    aria-label={`Select row ${row.rowId}`}
                    checked={props.checked.has(row.rowId)}
                    // The click, not the change, carries Shift; the state is the page's.
                    onChange={() => undefined}
                    onClick={(event) => {
                      event.stopPropagation();
                      props.onToggleChecked(row.rowId, event.shiftKey);
                    }}
                  />
                </div>
              ) : null}
              {shownColumns.map((column) => {
                const dataset = byId.get(column.id);
                const draft = drafts?.get(row.rowId)?.[column.id];
                return (
                  <div
                    key={column.id}
                    role="gridcell"
                    className={`grid-cell${draft === undefined ? "" : " unsaved"}${pinnedClass(column)}`}
                    style={{ width: column.getSize(), ...pinnedStyle(column) }}
                  >
                    {dataset === undefined ? (
                      <>
                        <span className="row-id">{row.rowId}</span>
                        {drafts?.has(row.rowId) ? <UnsavedMark label="unsaved edits" /> : null}
                      </>
                    ) : draft !== undefined ? (
                      <DraftCell text={draft} />
                    ) : (
                      <GridValue value={cellOf(row, dataset)} />
                    )}
                  </div>
                );
              })}
            </div>
          );
        })}
      </div>
    </div>
  );
}

/**
 * The grid's columns as a TanStack table without rows: the row id, then the dataset's columns, each
 * with the layout's width (a dragged header edge changes it), shown or hidden, pinned or not.
 */
function useColumns(
  columns: readonly DatasetColumn[],
  layout: GridLayout,
  onLayout: RowGridProps["onLayout"],
) {
  const columnIds = useMemo(() => [ROW_ID_COLUMN, ...columns.map((c) => c.identifier)], [columns]);
  const columnDefs = useMemo<ColumnDef<DatasetRow>[]>(
    () =>
      columnIds.map((id) => ({
        id,
        size: defaultWidth(id, columns),
        minSize: MIN_WIDTH,
        maxSize: MAX_WIDTH,
      })),
    [columnIds, columns],
  );
  const onSizing = (updater: Updater<ColumnSizingState>) =>
    onLayout?.((now) => {
      const next = typeof updater === "function" ? updater({ ...now.widths }) : updater;
      return {
        ...now,
        widths: Object.fromEntries(Object.entries(next).map(([id, size]) => [id, clampWidth(size)])),
      };
    });
  const table = useReactTable({
    data: NO_ROWS,
    columns: columnDefs,
    getCoreRowModel: getCoreRowModel(),
    state: {
      columnSizing: { ...layout.widths },
      columnVisibility: Object.fromEntries(layout.hidden.map((id) => [id, false])),
      columnPinning: { left: pinnedInOrder(layout, columnIds), right: [] },
    },
    onColumnSizingChange: onSizing,
    enableColumnResizing: onLayout !== undefined,
    columnResizeMode: "onChange",
  });
  const shownColumns = [...table.getLeftVisibleLeafColumns(), ...table.getCenterVisibleLeafColumns()];
  const headers = [
    ...(table.getLeftHeaderGroups()[0]?.headers ?? []),
    ...(table.getCenterHeaderGroups()[0]?.headers ?? []),
  ];
  return { table, shownColumns, headers };
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
