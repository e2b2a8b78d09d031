import { describe, expect, it } from "vitest";
import { datasetDeleteConsequence, datasetDetail } from "./dataset-summary";

const columns = (n: number) =>
  Array.from({ length: n }, (_, i) => ({
    identifier: `c${i}`,
    name: `C${i}`,
    source: { kind: "custom" as const },
  }));

describe("a dataset's counts in the list and its delete confirmation", () => {
  it("gives the exact row count with thousands separators", () => {
    expect(datasetDetail({ rows: 210_000, version: 12, columns: columns(4) })).toBe(
      "210,000 rows · version 12 · 4 columns",
    );
    expect(datasetDetail({ rows: 1, version: 1, columns: columns(1) })).toBe("1 row · version 1 · 1 column");
  });

  it("says how many rows a deletion takes with it", () => {
    expect(datasetDeleteConsequence({ rows: 1_000_000, version: 3, columns: columns(5) })).toBe(
      "Its 1,000,000 rows, its 5 columns and 3 versions of history will be deleted.",
    );
    expect(datasetDeleteConsequence({ rows: 0, version: 0, columns: columns(4) })).toBe(
      "Its 0 rows, its 4 columns and 0 versions of history will be deleted.",
    );
  });
});
