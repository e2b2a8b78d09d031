import type { DatasetRow, ListDatasetRowsQuery } from "@svc/sdk";
import { useInfiniteQuery } from "@tanstack/react-query";
import { api } from "../api";

export const PAGE_SIZE = 200;

export interface RowFilters {
  search: string;
  sortDirection: "asc" | "desc";
  missingExpectedOutput: boolean;
  version: number | undefined;
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
    queryFn: ({ pageParam, signal }) => {
      const params: ListDatasetRowsQuery & { missing?: string } = {
        limit: PAGE_SIZE,
        sortDirection: filters.sortDirection,
      };
      if (pageParam) params.cursor = pageParam;
      if (filters.search.trim()) params.search = filters.search.trim();
      if (filters.version !== undefined) params.version = filters.version;
      if (filters.missingExpectedOutput) params.missing = "expectedOutput";
      return api.datasets.listRows(projectSlug, datasetSlug, params, { signal });
    },
    getNextPageParam: (page) => (page.hasMore && page.nextCursor ? page.nextCursor : undefined),
  });
  const rows: DatasetRow[] = query.data?.pages.flatMap((page) => page.items) ?? [];
  return { ...query, rows };
}
