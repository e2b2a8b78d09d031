import { infiniteQueryOptions, type QueryClient } from "@tanstack/react-query";
import { api } from "../api";
import { afterRowsWrite } from "../datasets/queries";
import { rowHistoryPrefix } from "../rows/queries";

/** Versions shown per page of the timeline. */
const VERSIONS_PAGE = 100;
/** Changed rows shown per page of a diff. */
const DIFF_PAGE = 50;

/** The dataset's timeline, newest first, page by page. */
export const versionsQuery = (projectSlug: string, datasetSlug: string) =>
  infiniteQueryOptions({
    queryKey: ["versions", projectSlug, datasetSlug],
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) =>
      api.datasets.listVersions(projectSlug, datasetSlug, {
        limit: VERSIONS_PAGE,
        ...(pageParam ? { cursor: pageParam } : {}),
      }),
    getNextPageParam: (page) => (page.hasMore && page.nextCursor ? page.nextCursor : undefined),
  });

/** What changed between versions `from` and `to`, row by row, page by page. */
export const diffQuery = (
  projectSlug: string,
  datasetSlug: string,
  from: number | undefined,
  to: number | undefined,
) =>
  infiniteQueryOptions({
    queryKey: ["diff", projectSlug, datasetSlug, from, to],
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam, signal }) =>
      api.datasets.diff(
        projectSlug,
        datasetSlug,
        { from: from ?? 0, to: to ?? 0, limit: DIFF_PAGE, ...(pageParam ? { cursor: pageParam } : {}) },
        { signal },
      ),
    getNextPageParam: (page) => (page.hasMore && page.nextCursor ? page.nextCursor : undefined),
  });

/** What a restore changes: the dataset, its rows, and every row's history. */
export const afterRestore = (queryClient: QueryClient, projectSlug: string, datasetSlug: string) =>
  Promise.all([
    afterRowsWrite(queryClient, projectSlug, datasetSlug),
    queryClient.invalidateQueries({ queryKey: rowHistoryPrefix(projectSlug, datasetSlug) }),
  ]);

/** What the timeline shows after a restore: the new version. */
export const afterVersionsWrite = (queryClient: QueryClient, projectSlug: string, datasetSlug: string) =>
  queryClient.invalidateQueries({ queryKey: versionsQuery(projectSlug, datasetSlug).queryKey });
