import type { DatasetRow, ListDatasetRowsQuery } from "@svc/sdk";
import { useQueries, useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useRef, useState } from "react";
import { api } from "../api";
import type { ListFilters } from "./filters";
import { rowListKey } from "./queries";
import {
  NOTHING_KNOWN,
  nextReach,
  PAGE_SIZE,
  type PageFacts,
  type PageRange,
  pagesAround,
  pagesWithin,
  type Reach,
  type RowSpan,
  spannedRows,
} from "./row-window";

export interface RowFilters extends ListFilters {
  version: number | undefined;
}

/** The list's query for the filters: what the grid shows and what "select all matching" selects. */
export function listQuery(filters: RowFilters): ListDatasetRowsQuery {
  const params: ListDatasetRowsQuery = { sortDirection: filters.sortDirection };
  if (filters.search.trim()) params.search = filters.search.trim();
  if (filters.version !== undefined) params.version = filters.version;
  if (filters.missing.length > 0) params.missing = filters.missing.join(",");
  if (filters.present.length > 0) params.present = filters.present.join(",");
  if (filters.where.length > 0) params.where = filters.where;
  return params;
}

/** One server page of the list: its rows from position `page * PAGE_SIZE`, and whether more follow. */
interface RowPage {
  items: DatasetRow[];
  hasMore: boolean;
}

/**
 * Page `page` of the list, read at its position. A page of large rows comes back shorter (the platform
 * caps a response's size): the rest of its rows follow by the cursor, from the same version, so that
 * every page holds its PAGE_SIZE positions and a position's page is arithmetic.
 */
async function readPage(
  projectSlug: string,
  datasetSlug: string,
  query: ListDatasetRowsQuery,
  page: number,
  signal: AbortSignal,
): Promise<RowPage> {
  const start = page > 0 ? { offset: page * PAGE_SIZE } : {};
  let response = await api.datasets.listRows(
    projectSlug,
    datasetSlug,
    { ...query, ...start, limit: PAGE_SIZE },
    { signal },
  );
  const items = [...response.items];
  while (items.length < PAGE_SIZE && response.hasMore && response.nextCursor) {
    response = await api.datasets.listRows(
      projectSlug,
      datasetSlug,
      { ...query, cursor: response.nextCursor, limit: PAGE_SIZE - items.length },
      { signal },
    );
    items.push(...response.items);
  }
  return { items, hasMore: response.hasMore };
}

/** How long the pages in view stay put before they are read: a scrollbar dragged past reads none. */
const SETTLE_MS = 120;
/** Rows read ahead of the view on each side, so that a steady scroll meets rows already there. */
const READ_AHEAD = 100;
/** The rows taken to be in view before the grid says which are. */
const FIRST_VIEW = 30;

/**
 * The dataset's rows by position, for a grid as tall as the whole list: the server pages under the
 * rows in view are read at their position (`offset`), not appended from the start, so a scrollbar
 * dragged to the middle of a million rows reads the middle. `total` is the list's exact length when the
 * platform gives it (nothing narrows the list); a filtered list is as long as its pages show so far.
 * The rows the grid last showed stay on screen while their pages are read again after a change.
 */
export function useRowPages(
  projectSlug: string,
  datasetSlug: string,
  filters: RowFilters,
  { total, jumpedTo }: { total: number | undefined; jumpedTo: number | undefined },
) {
  const queryClient = useQueryClient();
  const query = listQuery(filters);
  const key = rowListKey(projectSlug, datasetSlug, query);
  const list = JSON.stringify(key);

  // The pages under the rows in view, as the grid last said, for this list (a new list starts where the
  // jump went). Only a change of pages is news to the page: a scroll within them redraws the grid alone.
  const [view, setView] = useState<{ list: string; pages: PageRange }>();
  const start = jumpedTo ?? 0;
  const range =
    view?.list === list ? view.pages : pagesAround({ first: start, last: start + FIRST_VIEW }, READ_AHEAD);
  const onView = useCallback(
    (span: RowSpan) => {
      const next = pagesAround(span, READ_AHEAD);
      setView((now) =>
        now?.list === list && now.pages.from === next.from && now.pages.to === next.to
          ? now
          : { list, pages: next },
      );
    },
    [list],
  );
  const settled = useSettledRange(list, range);

  const reachBefore = useRef<{ list: string; reach: Reach }>({ list, reach: NOTHING_KNOWN });
  const before = reachBefore.current.list === list ? reachBefore.current.reach : NOTHING_KNOWN;
  const pages = pagesWithin(settled, total ?? (before.exact ? before.known : undefined));
  const results = useQueries({
    queries: pages.map((page) => ({
      queryKey: [...key, page],
      queryFn: ({ signal }: { signal: AbortSignal }) =>
        readPage(projectSlug, datasetSlug, query, page, signal),
    })),
  });

  const read = new Map<number, RowPage>();
  pages.forEach((page, i) => {
    const data = results[i]?.data;
    if (data) read.set(page, data);
  });
  const facts: PageFacts[] = [...read].map(([page, data]) => ({
    page,
    rows: data.items.length,
    hasMore: data.hasMore,
  }));
  const reach = nextReach(before, facts);
  useEffect(() => {
    reachBefore.current = { list, reach };
  });
  const jumpPage = jumpedTo === undefined ? undefined : read.get(Math.floor(jumpedTo / PAGE_SIZE));
  const pastEnd = jumpPage !== undefined && jumpPage.items.length === 0 && !jumpPage.hasMore;

  // "Loading" is the list's first read only: a jump far away shows its rows as placeholders meanwhile.
  const anyRead = read.size > 0;
  const [readList, setReadList] = useState<string>();
  useEffect(() => {
    if (anyRead) setReadList(list);
  }, [anyRead, list]);

  /** The row at a position, from the pages in view or any page of this list read before. */
  const rowAt = (index: number): DatasetRow | undefined => {
    const page = Math.floor(index / PAGE_SIZE);
    const data = read.get(page) ?? queryClient.getQueryData<RowPage>([...key, page]);
    return data?.items[index - page * PAGE_SIZE];
  };
  const rows = [...read.values()].flatMap((data) => data.items);
  const indexOf = (rowId: string): number => {
    for (const [page, data] of read) {
      const at = data.items.findIndex((row) => row.rowId === rowId);
      if (at >= 0) return page * PAGE_SIZE + at;
    }
    return -1;
  };

  return {
    /** The rows the grid spans: the exact count, or for a filtered list what its pages show so far. */
    length: total ?? spannedRows(reach, jumpedTo, pastEnd),
    /** Rows known to be in the list, and whether that is all of them. */
    known: total ?? reach.known,
    exact: total !== undefined || reach.exact,
    /** The rows read for the view, in order: what "every loaded row" means. */
    rows,
    rowAt,
    indexOf,
    onView,
    isPending: pages.length > 0 && !anyRead && readList !== list,
    error: results.find((result) => result.error)?.error ?? null,
  };
}

/**
 * The pages in view once they have stayed put for SETTLE_MS: the pages a scroll passes over are not
 * read. A new list is read at once.
 */
function useSettledRange(list: string, range: PageRange): PageRange {
  const [settled, setSettled] = useState({ list, ...range });
  const { from, to } = range;
  useEffect(() => {
    if (settled.list === list && settled.from === from && settled.to === to) return;
    const timer = setTimeout(() => setSettled({ list, from, to }), settled.list === list ? SETTLE_MS : 0);
    return () => clearTimeout(timer);
  }, [list, from, to, settled]);
  return settled.list === list ? { from: settled.from, to: settled.to } : range;
}
