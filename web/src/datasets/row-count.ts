/** What the row list says of its length: the dataset's count when nothing narrows it, else what is loaded. */
export function rowCountLabel({
  shown,
  hasMore,
  rowCount,
  filtered,
  pinned,
  offset,
}: {
  /** Rows loaded in the grid. */
  shown: number;
  /** More rows follow the loaded ones. */
  hasMore: boolean;
  /** The dataset's row count at its current version, when known. */
  rowCount: number | undefined;
  filtered: boolean;
  /** An earlier version is shown, whose count is not the dataset's. */
  pinned: boolean;
  /** The list starts past the first row (a jump to a position). */
  offset: number;
}): string {
  const loaded = shown.toLocaleString();
  if (offset > 0) {
    const last = (offset + shown).toLocaleString();
    return `Rows ${(offset + 1).toLocaleString()}–${last}${hasMore ? " and on" : ""}`;
  }
  if (!filtered && rowCount !== undefined && !pinned) return `${rowCount.toLocaleString()} rows`;
  return hasMore
    ? `${loaded}+ rows${filtered ? " match" : ""}`
    : `${loaded} ${shown === 1 ? "row" : "rows"}${filtered ? (shown === 1 ? " matches" : " match") : ""}`;
}
