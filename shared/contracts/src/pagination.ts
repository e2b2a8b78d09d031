import type { z } from "zod";
import { decodeCursor, encodeCursor, invalidCursor } from "./cursor";
import type { Page } from "./schemas/common";

/**
 * The most a page's items may weigh as JSON. A page travels to the gateway as one bus message, which
 * NATS limits to 1 MiB unless configured otherwise; rows and traces hold whatever clients stored, so
 * 200 of them may weigh far more. `limit` is a maximum: a page ends early, with `hasMore` and a cursor
 * after its last item, once the next item would take it past this.
 */
const PAGE_MAX_BYTES = 768 * 1024;

/**
 * Builds a page from up to `limit + 1` records: the extra one only says that there is more, and the
 * cursor points after the last record shown. A page always shows its first record, however large: the
 * next page would start at the same place.
 */
export function toPage<R, T>(
  records: readonly R[],
  limit: number,
  item: (record: R) => T,
  cursorAfter: (record: R) => string,
  maxBytes = PAGE_MAX_BYTES,
): Page<T> {
  const items: T[] = [];
  let bytes = 0;
  for (const record of records.slice(0, limit)) {
    const shown = item(record);
    bytes += Buffer.byteLength(JSON.stringify(shown) ?? "null");
    if (items.length > 0 && bytes > maxBytes) break;
    items.push(shown);
  }
  const last = records[items.length - 1];
  const hasMore = records.length > items.length && last !== undefined;
  return { items, nextCursor: hasMore ? cursorAfter(last) : null, hasMore };
}

/**
 * The cursors of one kind of list. A cursor carries the list it was issued for (its project or
 * dataset, its sort, a fingerprint of its filters) and where its page ended, so that the next page
 * goes on from there in the same list, or is refused.
 */
export interface ListCursors<C> {
  /**
   * The request's cursor; undefined on a first page. One that is not this kind's is refused, and so
   * is one for which `refusal` gives a reason: it was issued for another list than the one asked for.
   */
  read(raw: string | undefined, refusal: (cursor: C) => string | undefined): C | undefined;
  /** `toPage`, its next cursor the one after the last record shown. */
  page<R, T>(
    records: readonly R[],
    limit: number,
    item: (record: R) => T,
    cursorAfter: (record: R) => C,
  ): Page<T>;
}

export function listCursors<C extends Record<string, unknown>>(schema: z.ZodType<C>): ListCursors<C> {
  return {
    read(raw, refusal) {
      if (raw === undefined) return undefined;
      const cursor = decodeCursor(schema, raw);
      const reason = refusal(cursor);
      if (reason !== undefined) throw invalidCursor(reason);
      return cursor;
    },
    page: (records, limit, item, cursorAfter) =>
      toPage(records, limit, item, (record) => encodeCursor(cursorAfter(record))),
  };
}
