import type { CountDatasetRowsQuery } from "@svc/sdk";
import { useQuery } from "@tanstack/react-query";
import { rowCountQuery } from "./queries";
import { listQuery, type RowFilters } from "./use-rows";

/**
 * The exact length of a filtered list at `version` (the version the page shows), from the platform's
 * count; undefined until it is known, or when nothing narrows the list. After an edit the count of
 * the new version follows (the platform works it out from what the edit changed), and the last count
 * stays shown meanwhile.
 */
export function useRowCount(
  projectSlug: string,
  datasetSlug: string,
  filters: RowFilters,
  { filtered, version }: { filtered: boolean; version: number | undefined },
): number | undefined {
  const { sortDirection: _order, version: _pinned, ...narrowing } = listQuery(filters);
  const query: CountDatasetRowsQuery = version === undefined ? narrowing : { ...narrowing, version };
  const count = useQuery({
    ...rowCountQuery(projectSlug, datasetSlug, query),
    enabled: filtered && version !== undefined,
  });
  return filtered ? count.data?.count : undefined;
}
