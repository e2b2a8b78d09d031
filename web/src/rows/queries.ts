import type { CountDatasetRowsQuery, ListDatasetRowsQuery } from "@svc/sdk";
import { infiniteQueryOptions, queryOptions } from "@tanstack/react-query";
import { api } from "../api";

/** Every cached page of a dataset's row lists, whatever their filters: what a row write invalidates. */
export const rowsKey = (projectSlug: string, datasetSlug: string) => ["rows", projectSlug, datasetSlug];

/** One list of the dataset's rows (its filters as the API's query): its pages sit under this key. */
export const rowListKey = (projectSlug: string, datasetSlug: string, query: ListDatasetRowsQuery) => [
  ...rowsKey(projectSlug, datasetSlug),
  query,
];

/**
 * The exact length of a filtered list at a version (the filters, then the version, in its key). A
 * version's count never changes, so it is never read again; the same filters at the version before
 * stand in while the next version's count comes.
 */
export const rowCountQuery = (projectSlug: string, datasetSlug: string, query: CountDatasetRowsQuery) => {
  const filters = ["row-count", projectSlug, datasetSlug, { ...query, version: null }];
  return queryOptions({
    queryKey: [...filters, query.version ?? null],
    queryFn: ({ signal }) => api.datasets.countRows(projectSlug, datasetSlug, query, { signal }),
    staleTime: Number.POSITIVE_INFINITY,
    placeholderData: (previous, previousQuery) =>
      JSON.stringify(previousQuery?.queryKey.slice(0, filters.length)) === JSON.stringify(filters)
        ? previous
        : undefined,
  });
};

/** Every cached single row of a dataset (the rows opened by their address). */
export const rowKey = (projectSlug: string, datasetSlug: string) => ["row", projectSlug, datasetSlug];

/** One row, at the pinned version when there is one: a deep link to a row the grid has not loaded. */
export const rowQuery = (
  projectSlug: string,
  datasetSlug: string,
  rowId: string | undefined,
  pinnedVersion: number | undefined,
) =>
  queryOptions({
    queryKey: [...rowKey(projectSlug, datasetSlug), rowId, pinnedVersion],
    queryFn: () =>
      api.datasets.getRow(
        projectSlug,
        datasetSlug,
        rowId ?? "",
        pinnedVersion === undefined ? {} : { version: pinnedVersion },
      ),
  });

/** A row's history entries shown per page. */
const HISTORY_PAGE = 20;

/** Every cached history of the dataset's rows: a restore changes them all. */
export const rowHistoryPrefix = (projectSlug: string, datasetSlug: string) => [
  "row-history",
  projectSlug,
  datasetSlug,
];

/** A row's history, newest first, page by page; the row's version is in the key, so a save shows at once. */
export const rowHistoryQuery = (projectSlug: string, datasetSlug: string, rowId: string, version: number) =>
  infiniteQueryOptions({
    queryKey: [...rowHistoryPrefix(projectSlug, datasetSlug), rowId, version],
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam, signal }) =>
      api.datasets.rowHistory(
        projectSlug,
        datasetSlug,
        rowId,
        { limit: HISTORY_PAGE, ...(pageParam ? { cursor: pageParam } : {}) },
        { signal },
      ),
    getNextPageParam: (page) => (page.hasMore && page.nextCursor ? page.nextCursor : undefined),
  });
