/**
 * What the row list says of its length: the exact count of the version shown when nothing narrows it
 * (the dataset and each version know theirs); for a filtered list, the rows its pages show so far, with
 * a plus while more may follow.
 */
export function rowCountLabel({
  known,
  exact,
  filtered,
}: {
  /** Rows known to be in the list: the version's count, or what a filtered list's pages showed. */
  known: number;
  /** `known` is the whole list. */
  exact: boolean;
  filtered: boolean;
}): string {
  const count = `${known.toLocaleString()}${exact ? "" : "+"}`;
  const rows = exact && known === 1 ? "row" : "rows";
  if (!filtered) return `${count} ${rows}`;
  return `${count} ${rows} ${exact && known === 1 ? "matches" : "match"}`;
}
