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

  // Each was a 500 ("value out of range") from the database, which compares them with integer and bigint columns.
  test.each([
    [{ field: "spanCount", op: "gt", value: 2147483648 }, "must be at most 2147483647"],
    [{ field: "errorCount", op: "eq", value: 1e20 }, "must be an integer"],
    [
      { field: "durationNs", op: "gt", value: "9999999999999999999" },
      "must be at most 9223372036854775807 nanoseconds",
    ],
    [
      { field: "startTime", op: "gt", value: "9999-12-31T23:59:59Z" },
      "must be a time from 1677-09-21T00:12:43.146Z to 2262-04-11T23:47:16.854Z",
    ],
    [
      { field: "endTime", op: "lt", value: "0001-01-01T00:00:00Z" },
      "must be a time from 1677-09-21T00:12:43.146Z to 2262-04-11T23:47:16.854Z",
    ],
  ])("refuse %j, whose value the stored column cannot hold", (filter, message) => {
    const result = listTracesBodySchema.safeParse({ filters: [filter] });
    expect(result.error?.issues.map((issue) => [issue.path.join("."), issue.message])).toEqual([
      ["filters.0.value", message],
    ]);
  });

  test("take the largest values the columns hold", () => {
    const { filters } = listTracesBodySchema.parse({
      filters: [
        { field: "spanCount", op: "lte", value: 2147483647 },
        { field: "tokensTotal", op: "lte", value: Number.MAX_SAFE_INTEGER },
        { field: "durationNs", op: "lte", value: "9223372036854775807" },
        { field: "startTime", op: "lte", value: "2262-04-11T23:47:16.854Z" },
      ],
    });
    expect(filters.map((filter) => filter.value)).toEqual([
      2147483647,
      Number.MAX_SAFE_INTEGER,
      "9223372036854775807",
      "9223372036854000000",
    ]);
  });
});
