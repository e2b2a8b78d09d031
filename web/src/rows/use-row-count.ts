import type { CountDatasetRowsQuery } from "@svc/sdk";
import { useQuery } from "@tanstack/react-query";
import { api } from "../api";
import { listQuery, type RowFilters } from "./use-rows";

/** The key of a filtered list's count: the dataset, the filters, then the version counted. */
const countKey = (projectSlug: string, datasetSlug: string, query: CountDatasetRowsQuery) => [
  "row-count",
  projectSlug,
  datasetSlug,
  { ...query, version: null },
  query.version ?? null,
];

/**
 * The exact length of a filtered list at `version` (the version the page shows), from the platform's
 * count; undefined until it is known, or when nothing narrows the list. A version's count never
 * changes, so it is never read twice; after an edit the count of the new version follows (the
 * platform works it out from what the edit changed), and the last count stays shown meanwhile.
 */
export function useRowCount(
  projectSlug: string,
  datasetSlug: string,
  filters: RowFilters,
  { filtered, version }: { filtered: boolean; version: number | undefined },
): number | undefined {
  const { sortDirection: _order, version: _pinned, ...narrowing } = listQuery(filters);
  const query: CountDatasetRowsQuery = version === undefined ? narrowing : { ...narrowing, version };
  const key = countKey(projectSlug, datasetSlug, query);
  const count = useQuery({
    queryKey: key,
    queryFn: ({ signal }) => api.datasets.countRows(projectSlug, datasetSlug, query, { signal }),
    enabled: filtered && version !== undefined,
    staleTime: Number.POSITIVE_INFINITY,
    // The same filters at the version before: shown until the new version's count comes.
    placeholderData: (previous, previousQuery) =>
      JSON.stringify(previousQuery?.queryKey.slice(0, 4)) === JSON.stringify(key.slice(0, 4))
        ? previous
        : undefined,
  });
  return filtered ? count.data?.count : undefined;
}
