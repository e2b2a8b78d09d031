import { describe, expect, test } from "vitest";
import { toPage } from "./pagination";

describe("toPage", () => {
  const cursorOf = (record: number | string) => `after-${record}`;

  test("shows `limit` records and points after the last one when one more was found", () => {
    expect(toPage([1, 2, 3], 2, (n) => n * 10, cursorOf)).toEqual({
      items: [10, 20],
      nextCursor: "after-2",
      hasMore: true,
    });
  });

  test("ends the list when no more was found", () => {
    expect(toPage([1, 2], 2, (n) => n, cursorOf)).toEqual({
      items: [1, 2],
      nextCursor: null,
      hasMore: false,
    });
    expect(toPage([], 2, (n) => n, cursorOf)).toEqual({ items: [], nextCursor: null, hasMore: false });
  });

  test("ends a page early, with a cursor after its last item, once its items would pass the byte limit", () => {
    const cell = "x".repeat(100);
    const page = toPage([1, 2, 3, 4, 5], 5, (n) => ({ n, cell }), cursorOf, 250);
    expect(page.items.map((item) => item.n)).toEqual([1, 2]);
    expect(page).toMatchObject({ nextCursor: "after-2", hasMore: true });
  });

  test("shows a first item larger than the limit on a page of its own, so that paging goes on", () => {
    const big = "é".repeat(200); // 400 bytes of UTF-8, 200 characters
    expect(toPage(["a", big, "b"], 3, (s) => s, cursorOf, 300)).toEqual({
      items: ["a"],
      nextCursor: "after-a",
      hasMore: true,
    });
    expect(toPage([big, "b"], 3, (s) => s, cursorOf, 300)).toEqual({
      items: [big],
      nextCursor: `after-${big}`,
      hasMore: true,
    });
    expect(toPage([big], 3, (s) => s, cursorOf, 300)).toEqual({
      items: [big],
      nextCursor: null,
      hasMore: false,
    });
  });
});
