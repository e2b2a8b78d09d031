import { describe, expect, it } from "vitest";
import { describeFilters, filtersFrom, resultsQuery, withFilters } from "./result-filters";

describe("result filters in the address", () => {
  it("reads errored and a score below a number", () => {
    const filters = filtersFrom(new URLSearchParams("errored=true&score=exact&below=0.5"));
    expect(filters).toEqual({ errored: true, score: "exact", below: 0.5 });
    expect(resultsQuery(filters)).toEqual({ errored: true, score: "exact", below: 0.5 });
    expect(describeFilters(filters)).toBe("with an error, exact below 0.5");
  });

  it("ignores a score without a number, or a number that is not one", () => {
    expect(filtersFrom(new URLSearchParams("score=exact"))).toEqual({
      errored: false,
      score: undefined,
      below: undefined,
    });
    expect(filtersFrom(new URLSearchParams("score=exact&below=abc")).score).toBeUndefined();
    expect(resultsQuery(filtersFrom(new URLSearchParams("below=1")))).toEqual({});
  });

  it("writes the filters back, keeping the address's other parameters", () => {
    const next = withFilters(new URLSearchParams("row=q1&errored=true"), {
      errored: false,
      score: "exact",
      below: 1,
    });
    expect(next.toString()).toBe("row=q1&score=exact&below=1");
  });
});
