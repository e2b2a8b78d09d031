import { describe, expect, it } from "vitest";
import { rowCountLabel } from "./row-count";

const label = (overrides: Partial<Parameters<typeof rowCountLabel>[0]>) =>
  rowCountLabel({
    shown: 50,
    hasMore: true,
    rowCount: 1204,
    filtered: false,
    offset: 0,
    ...overrides,
  });

describe("the row list's count", () => {
  it("gives the dataset's own count when nothing narrows the list", () => {
    expect(label({})).toBe("1,204 rows");
  });

  it("counts what is loaded when filtered, with a plus while more follow", () => {
    expect(label({ filtered: true })).toBe("50+ rows match");
    expect(label({ filtered: true, hasMore: false, shown: 1 })).toBe("1 row matches");
    expect(label({ filtered: true, hasMore: false, shown: 3 })).toBe("3 rows match");
  });

  it("gives the exact count however few rows are loaded, never a plus", () => {
    expect(label({ shown: 200, rowCount: 210_000 })).toBe("210,000 rows");
    expect(label({ shown: 1, hasMore: false, rowCount: 1 })).toBe("1 row");
    expect(label({ shown: 0, hasMore: false, rowCount: 0 })).toBe("0 rows");
  });

  it("counts what is loaded while the count is not known yet", () => {
    expect(label({ rowCount: undefined, hasMore: false, shown: 7 })).toBe("7 rows");
    expect(label({ rowCount: undefined, shown: 200 })).toBe("200+ rows");
  });

  it("names the range shown after a jump to a position", () => {
    expect(label({ offset: 1000 })).toBe("Rows 1,001–1,050 and on");
    expect(label({ offset: 1000, hasMore: false })).toBe("Rows 1,001–1,050");
  });
});
