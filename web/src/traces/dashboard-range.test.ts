import { describe, expect, it } from "vitest";
import { chartRows, firstFocus, listAddress, type MetricPoint, movedFocus, rangeOf } from "./dashboard-range";

const point = (time: string, group: string | null, traces: number, otherGroups = false): MetricPoint => ({
  time,
  group,
  otherGroups,
  traces,
  errors: 0,
  latencyP50Ms: 0,
  latencyP95Ms: 0,
  tokensInput: 0,
  tokensOutput: 0,
  costMicrocents: 0,
});

describe("the dashboard's range", () => {
  const now = Date.parse("2026-11-28T12:00:00.000Z");

  it("picks a bucket that draws each preset in a readable number of points", () => {
    expect(rangeOf("hour", now)).toEqual({
      from: "2026-11-28T11:00:00.000Z",
      to: "2026-11-28T12:00:00.000Z",
      bucket: "minute",
    });
    expect(rangeOf("day", now).bucket).toBe("hour");
    expect(rangeOf("week", now).bucket).toBe("hour");
    expect(rangeOf("month", now)).toMatchObject({ from: "2026-10-29T12:00:00.000Z", bucket: "day" });
  });

  it("picks a custom range's bucket by its length, never past the API's 1,440 buckets", () => {
    const custom = (hours: number) =>
      rangeOf(
        {
          from: "2026-01-01T00:00:00.000Z",
          to: new Date(Date.parse("2026-01-01") + hours * 3_600_000).toISOString(),
        },
        now,
      );
    expect(custom(2).bucket).toBe("minute");
    expect(custom(6).bucket).toBe("minute");
    expect(custom(7).bucket).toBe("hour");
    expect(custom(24 * 60).bucket).toBe("day");
  });
});

describe("chartRows", () => {
  it("makes one row per bucket with each group's value, in time order", () => {
    const { rows, groups } = chartRows(
      [
        point("2026-11-28T11:00:00.000Z", "gpt-4o", 3),
        point("2026-11-28T11:00:00.000Z", null, 1),
        point("2026-11-28T10:00:00.000Z", "gpt-4o", 2),
        point("2026-11-28T10:00:00.000Z", null, 0),
        point("2026-11-28T10:00:00.000Z", null, 4, true),
      ],
      (p) => p.traces,
    );
    expect(groups).toEqual(["gpt-4o", "(none)", "Others"]);
    expect(rows).toEqual([
      { time: "2026-11-28T10:00:00.000Z", values: { "gpt-4o": 2, "(none)": 0, Others: 4 } },
      { time: "2026-11-28T11:00:00.000Z", values: { "gpt-4o": 3, "(none)": 1 } },
    ]);
  });
});

describe("listAddress", () => {
  it("links a point to the traces list filtered to its bucket and model", () => {
    expect(listAddress("agents", "2026-11-28T10:00:00.000Z", "hour", "gpt-4o")).toBe(
      "/projects/agents/traces?from=2026-11-28T10%3A00%3A00.000Z&to=2026-11-28T11%3A00%3A00.000Z&model=gpt-4o",
    );
    expect(listAddress("agents", "2026-11-28T10:00:00.000Z", "minute", "Others")).toBe(
      "/projects/agents/traces?from=2026-11-28T10%3A00%3A00.000Z&to=2026-11-28T10%3A01%3A00.000Z",
    );
  });
});

describe("a chart's points from the keyboard", () => {
  it("moves along the time axis and between lines, and stops at the ends", () => {
    const at = { row: 3, line: 1 };
    expect(movedFocus(at, "ArrowRight", 5, 3)).toEqual({ row: 4, line: 1 });
    expect(movedFocus({ row: 4, line: 1 }, "ArrowRight", 5, 3)).toEqual({ row: 4, line: 1 });
    expect(movedFocus(at, "ArrowLeft", 5, 3)).toEqual({ row: 2, line: 1 });
    expect(movedFocus(at, "Home", 5, 3)).toEqual({ row: 0, line: 1 });
    expect(movedFocus(at, "End", 5, 3)).toEqual({ row: 4, line: 1 });
    expect(movedFocus(at, "PageUp", 5, 3)).toEqual({ row: 0, line: 1 });
    expect(movedFocus({ row: 0, line: 1 }, "PageDown", 50, 3)).toEqual({ row: 10, line: 1 });
    expect(movedFocus(at, "ArrowDown", 5, 3)).toEqual({ row: 3, line: 2 });
    expect(movedFocus({ row: 3, line: 2 }, "ArrowDown", 5, 3)).toEqual({ row: 3, line: 2 });
    expect(movedFocus(at, "ArrowUp", 5, 3)).toEqual({ row: 3, line: 0 });
    expect(movedFocus(at, "Tab", 5, 3)).toBeUndefined();
  });

  it("lands first on the latest point with a value, on the first line that has one", () => {
    const rows = [
      { time: "a", values: { x: 1, y: 0 } },
      { time: "b", values: { x: 0, y: 4 } },
      { time: "c", values: { x: 0, y: 0 } },
    ];
    expect(firstFocus(rows, ["x", "y"])).toEqual({ row: 1, line: 1 });
    expect(firstFocus(rows.slice(2), ["x", "y"])).toEqual({ row: 0, line: 0 });
    expect(firstFocus([], ["x"])).toEqual({ row: 0, line: 0 });
  });
});
