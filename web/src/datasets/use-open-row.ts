import type { DatasetRow } from "@svc/sdk";
import { useQuery } from "@tanstack/react-query";
import { api } from "../api";

/**
 * The row the address opens: from the rows the grid has loaded, or, for a deep link to a row not (yet)
 * loaded, fetched on its own once the grid's first page is in.
 */
export function useOpenRow(
  projectSlug: string,
  datasetSlug: string,
  rowId: string | undefined,
  pinnedVersion: number | undefined,
  pages: { rows: readonly DatasetRow[]; isPending: boolean },
) {
  const loaded = pages.rows.find((row) => row.rowId === rowId);
  const linked = useQuery({
    queryKey: ["row", projectSlug, datasetSlug, rowId, pinnedVersion],
    queryFn: () =>
      api.datasets.getRow(
        projectSlug,
        datasetSlug,
        rowId ?? "",
        pinnedVersion === undefined ? {} : { version: pinnedVersion },
      ),
    enabled: rowId !== undefined && loaded === undefined && !pages.isPending,
  });
  const row: DatasetRow | undefined = loaded ?? linked.data;
  return { row, error: linked.error };
}
