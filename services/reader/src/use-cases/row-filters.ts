import { type DatasetColumn, DomainError, type OperationInput, type operations } from "@svc/contracts";
import { type CellPresence, type CellRef, type CellSearch, visibilityOf } from "@svc/db";

/** The filters a row list and a row count share, as their queries give them. */
export type RowFilterQuery = OperationInput<typeof operations.countDatasetRows>["query"];

/** What lets a row through: the search over the visible cells, and the cells' presence and values. */
export interface RowFilters {
  search: CellSearch | undefined;
  presence: CellPresence | undefined;
}

/**
 * The query's filters against the dataset's active columns: a search reads the visible cells only,
 * and a column named in `missing`, `present` or `where` that is unknown or removed is refused.
 */
export function rowFiltersOf(query: RowFilterQuery, columns: readonly DatasetColumn[]): RowFilters {
  const visibility = visibilityOf(columns);
  return {
    search: query.search === undefined ? undefined : { text: query.search, ...visibility },
    presence: presenceOf(query, columns),
  };
}

/** `missing`, `present` and `where` as one text, for a cursor's fingerprint; undefined when none is given. */
export function presenceKey(query: RowFilterQuery): string | undefined {
  if (query.missing === undefined && query.present === undefined && query.where === undefined)
    return undefined;
  return JSON.stringify([query.missing ?? [], query.present ?? [], ...(query.where ? [query.where] : [])]);
}

/** The cells `missing` and `present` name, each an active column; anything else is refused. */
function presenceOf(query: RowFilterQuery, columns: readonly DatasetColumn[]): CellPresence | undefined {
  if (query.missing === undefined && query.present === undefined && query.where === undefined)
    return undefined;
  const refOf = (identifier: string): CellRef => {
    const column = columns.find((c) => c.identifier === identifier);
    if (!column) {
      throw new DomainError(
        "unknown_column",
        `Unknown or removed column "${identifier}"; list the dataset's columns to see the active identifiers`,
        { column: identifier },
      );
    }
    return column.source.kind === "builtin"
      ? { kind: "builtin", field: column.source.field }
      : { kind: "custom", identifier };
  };
  return {
    missing: (query.missing ?? []).map(refOf),
    present: (query.present ?? []).map(refOf),
    equal: (query.where ?? []).map(({ column, path, value }) => ({ cell: refOf(column), path, value })),
  };
}
