import type { DatasetRow } from "@svc/sdk";
import { useQuery } from "@tanstack/react-query";
import { useRef } from "react";
import { rowQuery } from "../rows/queries";

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
    ...rowQuery(projectSlug, datasetSlug, rowId, pinnedVersion),
    enabled: rowId !== undefined && loaded === undefined && !pages.isPending,
  });
  // A row that leaves the loaded list (saved out of a filtered view) stays open while it is fetched on
  // its own: the panel, and the focus in it, do not go away for that moment.
  const last = useRef<{ row: DatasetRow; pinnedVersion: number | undefined } | undefined>(undefined);
  const kept =
    last.current?.row.rowId === rowId && last.current?.pinnedVersion === pinnedVersion && !linked.error
      ? last.current?.row
      : undefined;
  const row: DatasetRow | undefined = loaded ?? linked.data ?? kept;
  last.current = row ? { row, pinnedVersion } : undefined;
  return { row, error: linked.error };
}
