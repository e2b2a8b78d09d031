import { describe, expect, test } from "vitest";
import { importTracesBodySchema, listTracesBodySchema } from "./filters";

describe("trace list and import bodies", () => {
  test("default to the latest traces first, 50 a page, no filters", () => {
    expect(listTracesBodySchema.parse(undefined)).toEqual({
      limit: 50,
      sortBy: "startTime",
      sortDirection: "desc",
      filters: [],
    });
  });

  test("turn time filters into exact nanoseconds", () => {
    const { filters } = listTracesBodySchema.parse({
      filters: [
        { field: "startTime", op: "gte", value: "2024-05-01T14:00:00.000000123+02:00" },
        { field: "durationNs", op: "gt", value: 1500 },
      ],
    });
    expect(filters).toEqual([
      { field: "startTime", op: "gte", value: "1714564800000000123" },
      { field: "durationNs", op: "gt", value: "1500" },
    ]);
  });

  test("name an unknown filter field in the error", () => {
    const result = importTracesBodySchema.safeParse({
      traces: { by: "filters", filters: [{ field: "cost", op: "gt", value: 1 }] },
    });
    expect(result.error?.issues[0]?.message).toMatch(
      /^Unknown filter field "cost"; filter on one of traceId, /,
    );
  });
});
