/**
 * What the row list says of its length: the exact count of the version shown when nothing narrows it
 * (the dataset and each version know theirs), else what is loaded.
 */
export function rowCountLabel({
  shown,
  hasMore,
  rowCount,
  filtered,
  offset,
}: {
  /** Rows loaded in the grid. */
  shown: number;
  /** More rows follow the loaded ones. */
  hasMore: boolean;
  /** The row count of the version shown (the current one or a pinned one), once known. */
  rowCount: number | undefined;
  filtered: boolean;
  /** The list starts past the first row (a jump to a position). */
  offset: number;
}): string {
  const loaded = shown.toLocaleString();
  if (offset > 0) {
    const last = (offset + shown).toLocaleString();
    return `Rows ${(offset + 1).toLocaleString()}–${last}${hasMore ? " and on" : ""}`;
  }
  if (!filtered && rowCount !== undefined)
    return `${rowCount.toLocaleString()} ${rowCount === 1 ? "row" : "rows"}`;
  return hasMore
    ? `${loaded}+ rows${filtered ? " match" : ""}`
    : `${loaded} ${shown === 1 ? "row" : "rows"}${filtered ? (shown === 1 ? " matches" : " match") : ""}`;
}
