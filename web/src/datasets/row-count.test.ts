import { describe, expect, it } from "vitest";
import { rowCountLabel } from "./row-count";

const label = (overrides: Partial<Parameters<typeof rowCountLabel>[0]>) =>
  rowCountLabel({
    shown: 50,
    hasMore: true,
    rowCount: 1204,
    filtered: false,
    pinned: false,
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

  it("does not give the current count for an earlier version", () => {
    expect(label({ pinned: true, hasMore: false, shown: 7 })).toBe("7 rows");
  });

  it("names the range shown after a jump to a position", () => {
    expect(label({ offset: 1000 })).toBe("Rows 1,001–1,050 and on");
    expect(label({ offset: 1000, hasMore: false })).toBe("Rows 1,001–1,050");
  });
});
