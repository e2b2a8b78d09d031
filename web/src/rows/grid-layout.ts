import type { DatasetColumn } from "@svc/sdk";

/**
 * How a person lays out a dataset's grid in this browser: column widths, the columns hidden, the
 * columns pinned to the left. Kept per dataset in local storage; the dataset's columns themselves (their
 * names and order) are the platform's and shared by everyone.
 */
export interface GridLayout {
  /** Widths in pixels set by the person, by column id; the others keep their default. */
  widths: Readonly<Record<string, number>>;
  hidden: readonly string[];
  pinned: readonly string[];
}

export const DEFAULT_LAYOUT: GridLayout = { widths: {}, hidden: [], pinned: [] };

/** The grid's first column: the row id. It can be pinned and resized, never hidden. */
export const ROW_ID_COLUMN = "rowId";
export const MIN_WIDTH = 60;
export const MAX_WIDTH = 1200;

/** A column's width before the person sets one: the row id narrow, metadata middling, cells wide. */
export function defaultWidth(columnId: string, columns: readonly DatasetColumn[]): number {
  if (columnId === ROW_ID_COLUMN) return 140;
  const column = columns.find((c) => c.identifier === columnId);
  return column?.source.kind === "builtin" && column.source.field === "metadata" ? 200 : 260;
}

export const clampWidth = (width: number): number =>
  Math.round(Math.min(MAX_WIDTH, Math.max(MIN_WIDTH, width)));

export function withWidth(layout: GridLayout, columnId: string, width: number): GridLayout {
  return { ...layout, widths: { ...layout.widths, [columnId]: clampWidth(width) } };
}

export function withShown(layout: GridLayout, columnId: string, shown: boolean): GridLayout {
  if (columnId === ROW_ID_COLUMN) return layout;
  const hidden = layout.hidden.filter((id) => id !== columnId);
  return { ...layout, hidden: shown ? hidden : [...hidden, columnId] };
}

export function withPinned(layout: GridLayout, columnId: string, pinned: boolean): GridLayout {
  const others = layout.pinned.filter((id) => id !== columnId);
  return { ...layout, pinned: pinned ? [...others, columnId] : others };
}

/** The pinned columns in the grid's order (the row id first, then the dataset's), however pinned. */
export function pinnedInOrder(layout: GridLayout, columnIds: readonly string[]): string[] {
  return columnIds.filter((id) => layout.pinned.includes(id));
}

const isColumnId = (value: unknown): value is string =>
  typeof value === "string" && value.length > 0 && value.length <= 128;

/**
 * A layout from what storage holds: anything unreadable (another version's shape, a hand edit) is
 * left out rather than trusted, and nothing at all gives the default.
 */
export function parseLayout(text: string | null): GridLayout {
  if (text === null) return DEFAULT_LAYOUT;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return DEFAULT_LAYOUT;
  }
  if (value === null || typeof value !== "object") return DEFAULT_LAYOUT;
  const { widths, hidden, pinned } = value as Record<string, unknown>;
  const list = (items: unknown) => (Array.isArray(items) ? [...new Set(items.filter(isColumnId))] : []);
  const sizes =
    widths !== null && typeof widths === "object"
      ? Object.entries(widths).flatMap(([id, width]) =>
          isColumnId(id) && typeof width === "number" && Number.isFinite(width)
            ? [[id, clampWidth(width)] as const]
            : [],
        )
      : [];
  return {
    widths: Object.fromEntries(sizes),
    hidden: list(hidden).filter((id) => id !== ROW_ID_COLUMN),
    pinned: list(pinned),
  };
}

export const layoutStorageKey = (datasetId: string) => `svc:grid-layout:${datasetId}`;

/**
 * The layout stored for a dataset. Storage may be off or refuse (a private window, a blocked site,
 * a full quota): then the grid starts from the default, and nothing else changes.
 */
export function readLayout(storage: () => Storage, datasetId: string): GridLayout {
  try {
    return parseLayout(storage().getItem(layoutStorageKey(datasetId)));
  } catch {
    return DEFAULT_LAYOUT;
  }
}

/** Keeps a dataset's layout (the default removes it); false when storage refused. */
export function writeLayout(storage: () => Storage, datasetId: string, layout: GridLayout): boolean {
  try {
    const key = layoutStorageKey(datasetId);
    const empty = Object.keys(layout.widths).length === 0 && !layout.hidden.length && !layout.pinned.length;
    if (empty) storage().removeItem(key);
    else storage().setItem(key, JSON.stringify(layout));
    return true;
  } catch {
    return false;
  }
}
