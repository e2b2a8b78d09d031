/** "1 row", "2 rows", "1,000 rows": a count with its noun. */
export const plural = (count: number, noun: string): string =>
  `${count.toLocaleString()} ${noun}${count === 1 ? "" : "s"}`;

/** A size in bytes as people read it: KB below a megabyte, MB with one decimal above. */
export function sizeOf(bytes: number): string {
  return bytes < 1024 * 1024 ? `${Math.ceil(bytes / 1024)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
