/*
 * The grid's geometry: a scroll area as tall as the whole list, whatever its length, and which rows and
 * server pages a scroll position shows. Every row is ROW_HEIGHT pixels tall, so a position is arithmetic.
 */

export const ROW_HEIGHT = 36;
/** The header row above the rows, inside the scroll area (its 34 pixels and its border). */
export const HEADER_HEIGHT = 35;
/** Rows in one server page; page `p` holds the list's rows from position `p * PAGE_SIZE`. */
export const PAGE_SIZE = 200;
/**
 * The tallest scroll area the grid makes. Browsers cap an element's height (Firefox near 17.9 million
 * pixels, Chromium near 33.5 million). Past about 400,000 rows of 36 pixels the scroll area keeps this
 * height, and a scroll position stands for the same fraction of the list.
 */
export const MAX_SCROLL_HEIGHT = 15_000_000;

/** A list of `count` rows seen through `height` pixels of rows. */
export interface Extent {
  count: number;
  height: number;
}

/** The height of the scroll area under the header. */
export const scrollHeightOf = (count: number): number => Math.min(count * ROW_HEIGHT, MAX_SCROLL_HEIGHT);

/** How far the scroll area scrolls, and over how many rows its top edge travels meanwhile. */
function travel({ count, height }: Extent): { pixels: number; rows: number } {
  return {
    pixels: Math.max(0, scrollHeightOf(count) - height),
    rows: Math.max(0, count - height / ROW_HEIGHT),
  };
}

/** The row at the top edge of the view at `scrollTop`, with the fraction of it scrolled past. */
export function topRowAt(scrollTop: number, extent: Extent): number {
  if (extent.count * ROW_HEIGHT <= MAX_SCROLL_HEIGHT) return Math.max(0, scrollTop / ROW_HEIGHT);
  const { pixels, rows } = travel(extent);
  if (pixels === 0) return 0;
  return (Math.min(pixels, Math.max(0, scrollTop)) / pixels) * rows;
}

/** The scroll position that puts row `index` at the top edge of the view (as near as the end allows). */
export function scrollTopFor(index: number, extent: Extent): number {
  const { pixels, rows } = travel(extent);
  if (extent.count * ROW_HEIGHT <= MAX_SCROLL_HEIGHT)
    return Math.min(pixels, Math.max(0, index * ROW_HEIGHT));
  if (rows === 0) return 0;
  return (Math.min(rows, Math.max(0, index)) / rows) * pixels;
}

/**
 * The scroll position that brings row `index` fully into view with the least movement: none when it is
 * in view, else the row at the top edge (going up) or at the bottom edge (going down).
 */
export function scrollTopToShow(index: number, scrollTop: number, extent: Extent): number {
  const top = topRowAt(scrollTop, extent);
  const inView = extent.height / ROW_HEIGHT;
  if (index < top) return scrollTopFor(index, extent);
  if (index + 1 > top + inView) return scrollTopFor(index + 1 - inView, extent);
  return scrollTop;
}

/** Where row `index` is drawn, in pixels from the top of the scroll area under the header. */
export function rowOffset(index: number, scrollTop: number, extent: Extent): number {
  return scrollTop + (index - topRowAt(scrollTop, extent)) * ROW_HEIGHT;
}

/** The first and last positions of a span of rows, both included. */
export interface RowSpan {
  first: number;
  last: number;
}

/** The rows to draw at `scrollTop`: those in view and `overscan` more on each side; none of an empty list. */
export function rowsInView(scrollTop: number, extent: Extent, overscan: number): RowSpan | undefined {
  if (extent.count === 0) return undefined;
  const top = topRowAt(scrollTop, extent);
  return {
    first: Math.max(0, Math.floor(top) - overscan),
    last: Math.min(extent.count - 1, Math.ceil(top + extent.height / ROW_HEIGHT) + overscan),
  };
}

/** Server pages from `from` to `to`, both included. */
export interface PageRange {
  from: number;
  to: number;
}

/** The server pages holding a span of rows and `margin` rows on each side (read ahead of the scroll). */
export function pagesAround(span: RowSpan, margin: number): PageRange {
  return {
    from: Math.max(0, Math.floor((span.first - margin) / PAGE_SIZE)),
    to: Math.max(0, Math.floor((span.last + margin) / PAGE_SIZE)),
  };
}

/** The pages of a range, none past the list's last row when its length is known. */
export function pagesWithin(range: PageRange, count: number | undefined): number[] {
  const lastPage = count === undefined ? Number.POSITIVE_INFINITY : Math.floor((count - 1) / PAGE_SIZE);
  const pages: number[] = [];
  for (let page = range.from; page <= Math.min(range.to, lastPage); page++) pages.push(page);
  return pages;
}

/** What one server page read says of the list: how many rows it holds there, and whether more follow. */
export interface PageFacts {
  page: number;
  rows: number;
  hasMore: boolean;
}

/** How long a list is known to be, for one whose length the platform does not give (a filtered one). */
export interface Reach {
  /** Rows known to be in the list. */
  known: number;
  /** The list ends there: a page said no more follow. */
  exact: boolean;
}

export const NOTHING_KNOWN: Reach = { known: 0, exact: false };

/**
 * What the pages read say of a filtered list's length, from what was known before: the first page that
 * says nothing follows gives the length; else the list is as long as the furthest row read, or longer.
 * A page read again after a change (rows added, or saved out of the view) overrides what was known.
 */
export function nextReach(before: Reach, pages: readonly PageFacts[]): Reach {
  let { known, exact } = before;
  for (const page of [...pages].sort((a, b) => a.page - b.page)) {
    const start = page.page * PAGE_SIZE;
    const end = start + page.rows;
    if (!page.hasMore && (page.rows > 0 || page.page === 0)) return { known: end, exact: true };
    if (page.rows > 0 && (end > known || (exact && end >= known))) {
      known = end;
      exact = false;
    }
  }
  return { known, exact };
}

/**
 * The rows the grid spans for a filtered list: what is known, one more row standing for the rows that
 * may follow (its page is read when it comes into view), and as far as a jump to a position went,
 * unless that position's page was read and is past the end.
 */
export function spannedRows(reach: Reach, jumpedTo: number | undefined, pastEnd: boolean): number {
  if (reach.exact) return reach.known;
  return Math.max(reach.known + 1, jumpedTo === undefined || pastEnd ? 0 : jumpedTo + 1);
}
