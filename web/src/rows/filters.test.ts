import { describe, expect, it } from "vitest";
import {
  describeFilterValue,
  filtersFrom,
  filterValueJson,
  isFiltered,
  whereOf,
  withFilters,
} from "./filters";

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

describe("a filter's value", () => {
  it("is the text typed, without quotes, unless JSON is chosen", () => {
    expect(filterValueJson("prod", "text")).toEqual({ ok: true, json: '"prod"' });
    expect(filterValueJson("42", "text")).toEqual({ ok: true, json: '"42"' });
    expect(filterValueJson('say "hi"', "text")).toEqual({ ok: true, json: '"say \\"hi\\""' });
    // Quotes written as JSON writes a string are not part of the text.
    expect(filterValueJson(' "prod" ', "text")).toEqual({ ok: true, json: '"prod"' });
    expect(filterValueJson("42", "json")).toEqual({ ok: true, json: "42" });
    expect(filterValueJson(" true ", "json")).toEqual({ ok: true, json: "true" });
    const refused = filterValueJson("prod", "json");
    expect(refused.ok).toBe(false);
    expect(refused.ok ? "" : refused.problem).toMatch(/^The value is not JSON: .*Choose Text/);
  });

  it("says in its chip how it was understood", () => {
    expect(describeFilterValue('"42"')).toBe('"42" (text)');
    expect(describeFilterValue("42")).toBe("42 (number)");
    expect(describeFilterValue("true")).toBe("true (boolean)");
    expect(describeFilterValue("null")).toBe("null");
    expect(describeFilterValue('{"a":1}')).toBe('{"a":1} (JSON)');
  });
});
