import { useCallback, useEffect, useMemo, useState } from "react";
import { useParams, useSearchParams } from "react-router";
import { filtersFrom, type ListFilters, withFilters } from "../rows/filters";

/**
 * What the dataset page shows, as its address holds it, so that a link opens the same view: the
 * dataset, a pinned earlier version, the open row, the list's filters and the position it starts at.
 * Every change replaces the address rather than adding to the history.
 */
export function useDatasetAddress() {
  const { projectSlug = "", datasetSlug = "" } = useParams();
  const [params, setParams] = useSearchParams();
  const versionParam = params.get("version");
  const pinnedVersion =
    versionParam !== null && /^\d+$/.test(versionParam) ? Number(versionParam) : undefined;
  const selectedRowId = params.get("row") ?? undefined;

  // The filters live in the address; the search box follows it, a quarter second behind typing.
  const listFilters = useMemo(() => filtersFrom(params), [params]);
  const [search, setSearch] = useState(listFilters.search);
  const setFilters = useCallback(
    (change: (filters: ListFilters) => ListFilters) =>
      setParams((current) => withFilters(current, change(filtersFrom(current))), { replace: true }),
    [setParams],
  );

  // Only a search that differs from the address writes it: a write of the same address, landing
  // while a link's navigation is under way, would bring the page back.
  useEffect(() => {
    if (search === listFilters.search) return;
    const timer = setTimeout(() => setFilters((filters) => ({ ...filters, search })), 250);
    return () => clearTimeout(timer);
  }, [search, listFilters.search, setFilters]);

  // A jump to a position: `from` is the 1-based number of the first row shown.
  const fromParam = params.get("from");
  const offset = fromParam !== null && /^[1-9]\d{0,7}$/.test(fromParam) ? Number(fromParam) - 1 : 0;
  const setFrom = useCallback(
    (position: number) =>
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          if (position <= 1) next.delete("from");
          else next.set("from", String(position));
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );

  const setRow = useCallback(
    (rowId: string | undefined) =>
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          if (rowId === undefined) next.delete("row");
          else next.set("row", rowId);
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );

  return {
    projectSlug,
    datasetSlug,
    pinnedVersion,
    selectedRowId,
    setRow,
    listFilters,
    setFilters,
    search,
    setSearch,
    offset,
    setFrom,
  };
}
