import { describe, expect, it } from "vitest";
import { rowCountLabel } from "./row-count";

const label = (overrides: Partial<Parameters<typeof rowCountLabel>[0]>) =>
  rowCountLabel({ known: 1204, exact: true, filtered: false, ...overrides });

describe("the row list's count", () => {
  it("gives the exact count of the version shown, however few rows are read", () => {
    expect(label({})).toBe("1,204 rows");
    expect(label({ known: 210_000 })).toBe("210,000 rows");
    expect(label({ known: 1 })).toBe("1 row");
    expect(label({ known: 0 })).toBe("0 rows");
  });

  it("counts what a filtered list's pages showed, with a plus while more may follow", () => {
    expect(label({ filtered: true, known: 200, exact: false })).toBe("200+ rows match");
    expect(label({ filtered: true, known: 1 })).toBe("1 row matches");
    expect(label({ filtered: true, known: 3 })).toBe("3 rows match");
    expect(label({ filtered: true, known: 0 })).toBe("0 rows match");
  });

  it("counts what is read while the version's count is not known yet", () => {
    expect(label({ known: 7, exact: true })).toBe("7 rows");
    expect(label({ known: 200, exact: false })).toBe("200+ rows");
  });
});
