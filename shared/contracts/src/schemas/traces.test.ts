import { describe, expect, test } from "vitest";
import {
  importTracesBodySchema,
  ingestTracesBodySchema,
  isoToUnixNanos,
  listTracesBodySchema,
  unixNanosToIso,
} from "./traces";

const span = (extra: Record<string, unknown> = {}) => ({
  traceId: "5B8EFFF798038103D269B633813FC60C",
  spanId: "EEE19B7EC3C1B174",
  name: "chat",
  startTimeUnixNano: "1714564800000000000",
  endTimeUnixNano: 1714564800000001000,
  ...extra,
});
const request = (spans: unknown[]) => ({ resourceSpans: [{ scopeSpans: [{ spans }] }] });

describe("the OTLP/HTTP JSON body", () => {
  test("normalises ids to lower case and times to strings of digits, filling OTLP's defaults", () => {
    const parsed = ingestTracesBodySchema.parse(request([span({ parentSpanId: "", unknownField: 1 })]));
    expect(parsed.resourceSpans[0]?.scopeSpans[0]?.spans[0]).toEqual({
      traceId: "5b8efff798038103d269b633813fc60c",
      spanId: "eee19b7ec3c1b174",
      parentSpanId: "",
      name: "chat",
      kind: 0,
      startTimeUnixNano: "1714564800000000000",
      endTimeUnixNano: "1714564800000001024",
    });
  });

  test("refuses times beyond 64 bits and values of the wrong type, naming the field", () => {
    const result = ingestTracesBodySchema.safeParse(
      request([span({ endTimeUnixNano: "99999999999999999999", kind: "SERVER" })]),
    );
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.path.join("."))).toEqual([
      "resourceSpans.0.scopeSpans.0.spans.0.kind",
      "resourceSpans.0.scopeSpans.0.spans.0.endTimeUnixNano",
    ]);
  });
});

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

describe("nanosecond timestamps", () => {
  test("convert from ISO-8601 with any offset and precision, exactly", () => {
    expect(isoToUnixNanos("1970-01-01T00:00:01Z")).toBe("1000000000");
    expect(isoToUnixNanos("1970-01-01T01:00:00.5+01:00")).toBe("500000000");
    expect(isoToUnixNanos("2024-05-01T12:00:00.123456789Z")).toBe("1714564800123456789");
    expect(isoToUnixNanos("yesterday")).toBeUndefined();
  });

  test("convert to ISO-8601 to the millisecond", () => {
    expect(unixNanosToIso("1714564800123456789")).toBe("2024-05-01T12:00:00.123Z");
  });
});
