/** The page shape every list operation answers with. */
export interface Page<T> {
  items: T[];
  nextCursor: string | null;
  hasMore?: boolean;
}

/** Yields every item of every page, asking for the next page only when the previous one is used up. */
export async function* paginate<T>(
  fetchPage: (cursor: string | undefined) => Promise<Page<T>>,
): AsyncGenerator<T, void, undefined> {
  let cursor: string | undefined;
  for (;;) {
    const page = await fetchPage(cursor);
    yield* page.items;
    if (page.hasMore === false || !page.nextCursor) return;
    cursor = page.nextCursor;
  }
}

/** The caller's query or body with the page cursor set (or left out for the first page). */
export function withCursor<T extends object>(
  value: T | undefined,
  cursor: string | undefined,
): T & { cursor?: string } {
  return cursor === undefined ? { ...(value as T) } : { ...(value as T), cursor };
}
