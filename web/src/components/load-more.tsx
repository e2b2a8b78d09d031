/** What a "more" button reads of a paged list: TanStack Query's infinite query gives exactly this. */
export interface MorePages {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage(): Promise<unknown>;
}

/**
 * The button under a paged list that reads its next page, there while one follows, saying so while it
 * is read; `label` names what comes ("Older versions", "More traces").
 */
export function LoadMore({
  pages,
  label,
  className = "button",
}: {
  pages: MorePages;
  label: string;
  className?: string;
}) {
  if (!pages.hasNextPage) return null;
  return (
    <button
      type="button"
      className={className}
      onClick={() => void pages.fetchNextPage()}
      disabled={pages.isFetchingNextPage}
    >
      {pages.isFetchingNextPage ? "Loading…" : label}
    </button>
  );
}
