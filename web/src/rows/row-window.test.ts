import { describe, expect, it } from "vitest";
import {
  MAX_SCROLL_HEIGHT,
  nextReach,
  PAGE_SIZE,
  pagesAround,
  pagesWithin,
  ROW_HEIGHT,
  rowOffset,
  rowsInView,
  scrollHeightOf,
  scrollTopFor,
  scrollTopToShow,
  spannedRows,
  topRowAt,
} from "./row-window";

const view = 20 * ROW_HEIGHT;

describe("the grid's scroll geometry", () => {
  it("is one row height per row up to what a browser allows, then stays at that height", () => {
    expect(scrollHeightOf(100_000)).toBe(100_000 * ROW_HEIGHT);
    expect(scrollHeightOf(10_000_000)).toBe(MAX_SCROLL_HEIGHT);
    expect(scrollHeightOf(0)).toBe(0);
  });

  it("maps a scroll position to its row and back, exactly, below the cap", () => {
    const extent = { count: 100_000, height: view };
    expect(topRowAt(50_000 * ROW_HEIGHT, extent)).toBe(50_000);
    expect(scrollTopFor(50_000, extent)).toBe(50_000 * ROW_HEIGHT);
    expect(rowOffset(50_001, 50_000 * ROW_HEIGHT, extent)).toBe(50_001 * ROW_HEIGHT);
    // The last rows cannot come to the top: the view ends with the last row.
    expect(scrollTopFor(99_999, extent)).toBe((100_000 - 20) * ROW_HEIGHT);
  });

  it("maps a position over the cap proportionally, the middle to the middle and the end to the last row", () => {
    const extent = { count: 10_000_000, height: view };
    const travel = MAX_SCROLL_HEIGHT - view;
    expect(topRowAt(0, extent)).toBe(0);
    expect(topRowAt(travel / 2, extent)).toBeCloseTo((10_000_000 - 20) / 2);
    expect(topRowAt(travel, extent)).toBe(10_000_000 - 20);
    expect(topRowAt(travel + 500, extent)).toBe(10_000_000 - 20);
    expect(topRowAt(scrollTopFor(7_654_321, extent), extent)).toBeCloseTo(7_654_321, 3);
    // A row is drawn where the view shows it: the top row at the scroll position.
    const top = scrollTopFor(7_654_321, extent);
    expect(rowOffset(7_654_321, top, extent)).toBeCloseTo(top, 3);
    expect(rowOffset(7_654_322, top, extent)).toBeCloseTo(top + ROW_HEIGHT, 3);
    expect(rowsInView(travel, extent, 0)).toEqual({ first: 10_000_000 - 20, last: 9_999_999 });
  });

  it("scrolls only as far as brings a row into view", () => {
    const extent = { count: 1_000, height: view };
    const at = 100 * ROW_HEIGHT;
    expect(scrollTopToShow(110, at, extent)).toBe(at);
    expect(scrollTopToShow(90, at, extent)).toBe(90 * ROW_HEIGHT);
    expect(scrollTopToShow(130, at, extent)).toBe((130 - 19) * ROW_HEIGHT);
  });

  it("draws the rows in view and a few more, none past the ends", () => {
    expect(rowsInView(0, { count: 1_000, height: view }, 5)).toEqual({ first: 0, last: 25 });
    expect(rowsInView(500 * ROW_HEIGHT + 10, { count: 1_000, height: view }, 5)).toEqual({
      first: 495,
      last: 526,
    });
    expect(rowsInView(0, { count: 3, height: view }, 5)).toEqual({ first: 0, last: 2 });
    expect(rowsInView(0, { count: 0, height: view }, 5)).toBeUndefined();
  });
});

describe("the pages under the rows in view", () => {
  const pagesFor = (span: { first: number; last: number }, margin: number, count: number | undefined) =>
    pagesWithin(pagesAround(span, margin), count);

  it("are the pages of the rows in view and of the rows read ahead, within the list", () => {
    expect(pagesFor({ first: 0, last: 30 }, 100, 100_000)).toEqual([0]);
    expect(pagesFor({ first: 50_000, last: 50_030 }, 100, 100_000)).toEqual([249, 250]);
    expect(pagesFor({ first: 50_060, last: 50_090 }, 50, 100_000)).toEqual([250]);
    expect(pagesFor({ first: 99_990, last: 99_999 }, 100, 100_000)).toEqual([499]);
    expect(pagesFor({ first: 380, last: 410 }, 100, undefined)).toEqual([1, 2]);
    expect(pagesFor({ first: 0, last: 0 }, 100, 0)).toEqual([]);
  });

  it("stay the same range while the view moves within it", () => {
    expect(pagesAround({ first: 120, last: 150 }, 100)).toEqual(pagesAround({ first: 160, last: 190 }, 100));
  });
});

describe("a filtered list's length, from its pages", () => {
  const page = (index: number, rows: number, hasMore: boolean) => ({ page: index, rows, hasMore });

  it("is exact once a page says nothing follows it", () => {
    expect(nextReach({ known: 0, exact: false }, [page(0, 37, false)])).toEqual({ known: 37, exact: true });
    expect(nextReach({ known: 0, exact: false }, [page(0, 0, false)])).toEqual({ known: 0, exact: true });
    expect(nextReach({ known: 400, exact: false }, [page(2, 150, false)])).toEqual({
      known: 550,
      exact: true,
    });
  });

  it("grows with the furthest row read, and keeps what was known when pages go out of view", () => {
    const first = nextReach({ known: 0, exact: false }, [page(0, PAGE_SIZE, true)]);
    expect(first).toEqual({ known: 200, exact: false });
    const further = nextReach(first, [page(3, PAGE_SIZE, true)]);
    expect(further).toEqual({ known: 800, exact: false });
    expect(nextReach(further, [page(1, PAGE_SIZE, true)])).toEqual(further);
  });

  it("follows a change read again: rows saved out of the view, or rows added past a known end", () => {
    expect(nextReach({ known: 550, exact: true }, [page(2, 149, false)])).toEqual({
      known: 549,
      exact: true,
    });
    expect(nextReach({ known: 400, exact: true }, [page(1, PAGE_SIZE, true)])).toEqual({
      known: 400,
      exact: false,
    });
  });

  it("spans one more row while more may follow, and as far as a jump went unless it went past the end", () => {
    expect(spannedRows({ known: 200, exact: false }, undefined, false)).toBe(201);
    expect(spannedRows({ known: 200, exact: true }, 5_000, false)).toBe(200);
    expect(spannedRows({ known: 200, exact: false }, 5_000, false)).toBe(5_001);
    expect(spannedRows({ known: 200, exact: false }, 5_000, true)).toBe(201);
  });
});
