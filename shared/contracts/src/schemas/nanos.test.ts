import { describe, expect, test } from "vitest";
import { isoToUnixNanos, unixNanosToIso } from "./nanos";

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
