import type { DatasetRow, ListDatasetRowsQuery } from "@svc/sdk";
import { useInfiniteQuery } from "@tanstack/react-query";
import { api } from "../api";
import type { ListFilters } from "./filters";

export const PAGE_SIZE = 200;

export interface RowFilters extends ListFilters {
  version: number | undefined;
  /** Rows of the list before the first one shown: a jump to a position (0 for the start). */
  offset?: number | undefined;
}

/** The list's query for the filters: what the grid shows and what "select all matching" selects. */
export function listQuery(filters: RowFilters): ListDatasetRowsQuery {
  const params: ListDatasetRowsQuery = { sortDirection: filters.sortDirection };
  if (filters.search.trim()) params.search = filters.search.trim();
  if (filters.version !== undefined) params.version = filters.version;
  if (filters.missing.length > 0) params.missing = filters.missing.join(",");
  if (filters.present.length > 0) params.present = filters.present.join(",");
  if (filters.where.length > 0) params.where = filters.where;
  return params;
}

export const rowsKey = (projectSlug: string, datasetSlug: string) => ["rows", projectSlug, datasetSlug];

/**
 * The dataset's rows in server pages of 200, fetched as the grid scrolls near the end of what it has;
 * the first page's cursor pins the version, so every later page reads the same snapshot.
 */
export function useRowPages(projectSlug: string, datasetSlug: string, filters: RowFilters) {
  const query = useInfiniteQuery({
    queryKey: [...rowsKey(projectSlug, datasetSlug), filters],
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam, signal }) =>
      api.datasets.listRows(
        projectSlug,
        datasetSlug,
        {
          ...listQuery(filters),
          limit: PAGE_SIZE,
          // The first page starts at the position jumped to; the next ones go on by cursor.
          ...(pageParam ? { cursor: pageParam } : filters.offset ? { offset: filters.offset } : {}),
        },
        { signal },
      ),
    getNextPageParam: (page) => (page.hasMore && page.nextCursor ? page.nextCursor : undefined),
  });
  const rows: DatasetRow[] = query.data?.pages.flatMap((page) => page.items) ?? [];
  return { ...query, rows };
}
