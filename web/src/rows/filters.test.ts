import { describe, expect, it } from "vitest";
import { filtersFrom, isFiltered, whereOf, withFilters } from "./filters";

describe("filters in the address", () => {
  it("read back what they wrote, and keep the other parameters", () => {
    const filters = {
      search: "capital",
      sortDirection: "asc" as const,
      missing: ["expectedOutput", "c_topic"],
      present: ["metadata"],
      where: ['metadata.source="prod"', "expectedOutput=4"],
    };
    const params = withFilters(new URLSearchParams("row=r1&version=3&q=old"), filters);
    expect(params.get("row")).toBe("r1");
    expect(params.get("version")).toBe("3");
    expect(params.toString()).toContain("missing=expectedOutput%2Cc_topic");
    expect(filtersFrom(params)).toEqual(filters);
    expect(isFiltered(filters)).toBe(true);
  });

  it("start empty, newest first, and drop what is not a filter", () => {
    const filters = filtersFrom(new URLSearchParams("missing=,&where=no-equals-sign&sort=sideways"));
    expect(filters).toEqual({ search: "", sortDirection: "desc", missing: [], present: [], where: [] });
    expect(isFiltered(filters)).toBe(false);
    expect(withFilters(new URLSearchParams("row=r1"), filters).toString()).toBe("row=r1");
  });

  it("writes a value filter on a cell or on a path inside it", () => {
    expect(whereOf("metadata", "source", ' "prod" ')).toBe('metadata.source="prod"');
    expect(whereOf("expectedOutput", "", "4")).toBe("expectedOutput=4");
  });
});
