/** "1 row", "2 rows", "1,000 rows": a count with its noun. */
export const plural = (count: number, noun: string): string =>
  `${count.toLocaleString()} ${noun}${count === 1 ? "" : "s"}`;
