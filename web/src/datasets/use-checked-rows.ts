import type { DatasetRow } from "@svc/sdk";
import { useMutation } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { api } from "../api";
import { useToasts } from "../components/toasts";
import { selectionScope, toggleChecked } from "../rows/selection";
import { listQuery, type RowFilters } from "../rows/use-rows";

/** The most rows one selection holds (a delete or a copy by ids takes 10,000). */
const MAX_SELECTED = 10_000;

/**
 * The rows checked in the grid for bulk work: one by one, a Shift-range, every loaded row, or every row
 * the list's filters match, fetched page by page up to what one selection holds.
 */
export function useCheckedRows(
  projectSlug: string,
  datasetSlug: string,
  filters: RowFilters,
  rows: readonly DatasetRow[],
) {
  const toasts = useToasts();
  const [checked, setChecked] = useState<ReadonlySet<string>>(new Set());
  const anchor = useRef<string | undefined>(undefined);
  // Rows selected with "all matching" that the grid has not loaded: the bulk dialogs need their cells.
  const [fetched, setFetched] = useState<ReadonlyMap<string, DatasetRow>>(new Map());
  // Another search, filter or version: what was checked may no longer be in view, so none stays checked.
  const scope = selectionScope({ ...listQuery(filters) });
  useEffect(() => {
    void scope;
    setChecked((current) => (current.size === 0 ? current : new Set()));
    setFetched((current) => (current.size === 0 ? current : new Map()));
    anchor.current = undefined;
  }, [scope]);

  const selectingAll = useMutation({
    mutationFn: async () => {
      const found = new Map<string, DatasetRow>();
      let cursor: string | undefined;
      do {
        const page = await api.datasets.listRows(projectSlug, datasetSlug, {
          ...listQuery(filters),
          limit: 200,
          ...(cursor ? { cursor } : {}),
        });
        for (const row of page.items) found.set(row.rowId, row);
        cursor = page.hasMore && page.nextCursor ? page.nextCursor : undefined;
      } while (cursor && found.size < MAX_SELECTED);
      return { found, more: cursor !== undefined };
    },
    onSuccess: ({ found, more }) => {
      setFetched(found);
      setChecked(new Set([...found.keys()].slice(0, MAX_SELECTED)));
      if (more)
        toasts.show({
          kind: "info",
          message: `Selected the first ${MAX_SELECTED.toLocaleString()} matching rows, the most one change takes`,
        });
    },
  });
  const selectAllMatching = () => selectingAll.mutate();

  const loaded = new Map(rows.map((row) => [row.rowId, row]));
  /** The checked rows whose cells are at hand. */
  const checkedRows = [...checked].flatMap((rowId) => {
    const row = loaded.get(rowId) ?? fetched.get(rowId);
    return row ? [row] : [];
  });

  const toggle = (rowId: string, range: boolean) => {
    // Taken now: React may run the update later, after the anchor has moved to this row.
    const from = anchor.current;
    const order = rows.map((row) => row.rowId);
    setChecked((current) => toggleChecked(current, rowId, range, from, order));
    anchor.current = rowId;
  };
  const toggleAll = () =>
    setChecked((current) =>
      rows.length > 0 && rows.every((row) => current.has(row.rowId))
        ? new Set()
        : new Set(rows.map((row) => row.rowId)),
    );
  const clear = () => setChecked(new Set());

  return { checked, checkedRows, selectingAll, selectAllMatching, toggle, toggleAll, clear };
}
