import { describe, expect, it } from "vitest";
import {
  ancestorsOf,
  axisOf,
  axisTicks,
  barOf,
  buildSpanTree,
  formatNanos,
  MIN_BAR_PERCENT,
  type TreeSpan,
  visibleRows,
} from "./span-tree";

/** A span from `start` to `end` milliseconds after the epoch. */
const span = (spanId: string, parentSpanId: string | null, start: number, end: number): TreeSpan => ({
  spanId,
  parentSpanId,
  startTimeUnixNano: String(BigInt(start) * 1_000_000n),
  endTimeUnixNano: String(BigInt(end) * 1_000_000n),
});
const ids = (rows: { node: { span: TreeSpan } }[]) => rows.map((row) => row.node.span.spanId);

describe("buildSpanTree", () => {
  it("nests spans under their parents, each level by start time", () => {
    const roots = buildSpanTree([
      span("tool", "agent", 30, 40),
      span("agent", null, 0, 100),
      span("llm", "agent", 10, 20),
      span("parse", "llm", 15, 16),
    ]);
    expect(roots.map((r) => r.span.spanId)).toEqual(["agent"]);
    expect(roots[0]?.children.map((c) => c.span.spanId)).toEqual(["llm", "tool"]);
    expect(roots[0]?.children[0]?.children.map((c) => c.span.spanId)).toEqual(["parse"]);
    expect(roots[0]?.orphan).toBe(false);
  });

  it("puts a span whose parent never arrived at the root, marked as an orphan", () => {
    const roots = buildSpanTree([span("agent", null, 0, 100), span("late", "missing", 50, 60)]);
    expect(roots.map((r) => [r.span.spanId, r.orphan])).toEqual([
      ["agent", false],
      ["late", true],
    ]);
  });

  it("breaks a loop of parents at a span shown as an orphan root, losing none", () => {
    const roots = buildSpanTree([span("a", "b", 0, 10), span("b", "a", 1, 5), span("self", "self", 2, 3)]);
    const rows = visibleRows(roots, new Set());
    expect(ids(rows).sort()).toEqual(["a", "b", "self"]);
    expect(roots.every((root) => root.orphan)).toBe(true);
  });
});

describe("visibleRows", () => {
  const roots = buildSpanTree([
    span("agent", null, 0, 100),
    span("llm", "agent", 10, 20),
    span("parse", "llm", 15, 16),
    span("tool", "agent", 30, 40),
  ]);

  it("lists every span depth first, with its depth and place among its siblings", () => {
    const rows = visibleRows(roots, new Set());
    expect(rows.map((r) => [r.node.span.spanId, r.depth, r.position, r.siblings, r.parentId])).toEqual([
      ["agent", 1, 1, 1, null],
      ["llm", 2, 1, 2, "agent"],
      ["parse", 3, 1, 1, "llm"],
      ["tool", 2, 2, 2, "agent"],
    ]);
  });

  it("leaves out the descendants of a collapsed span, not the span itself", () => {
    expect(ids(visibleRows(roots, new Set(["llm"])))).toEqual(["agent", "llm", "tool"]);
    expect(ids(visibleRows(roots, new Set(["agent"])))).toEqual(["agent"]);
  });

  it("walks a chain of thousands of nested spans without overflowing the stack", () => {
    const chain = Array.from({ length: 20_000 }, (_, i) =>
      span(`s${i}`, i === 0 ? null : `s${i - 1}`, i, i + 1),
    );
    const rows = visibleRows(buildSpanTree(chain), new Set());
    expect(rows).toHaveLength(20_000);
    expect(rows.at(-1)?.depth).toBe(20_000);
  });

  it("names a span's ancestors, nearest first", () => {
    expect(ancestorsOf(roots, "parse")).toEqual(["llm", "agent"]);
    expect(ancestorsOf(roots, "agent")).toEqual([]);
  });
});

describe("the timeline", () => {
  it("spans the axis from the first start to the last end", () => {
    const axis = axisOf([span("a", null, 100, 200), span("b", "a", 150, 400)]);
    expect(axis).toEqual({ start: 100_000_000n, end: 400_000_000n });
  });

  it("places each bar by its offset and width relative to the trace", () => {
    const axis = axisOf([span("root", null, 0, 1000)]);
    expect(barOf(span("root", null, 0, 1000), axis)).toEqual({ offset: 0, width: 100 });
    expect(barOf(span("mid", "root", 250, 750), axis)).toEqual({ offset: 25, width: 50 });
  });

  it("keeps an instant span visible, and inside the axis", () => {
    const axis = axisOf([span("root", null, 0, 1000)]);
    expect(barOf(span("mark", "root", 500, 500), axis)).toEqual({ offset: 50, width: MIN_BAR_PERCENT });
    expect(barOf(span("end", "root", 1000, 1000), axis)).toEqual({
      offset: 100 - MIN_BAR_PERCENT,
      width: MIN_BAR_PERCENT,
    });
  });

  it("draws a trace of no duration as one full bar", () => {
    const axis = axisOf([span("only", null, 5, 5)]);
    expect(barOf(span("only", null, 5, 5), axis)).toEqual({ offset: 0, width: 100 });
  });

  it("keeps nanosecond precision past 2^53", () => {
    const start = 1_714_564_800_000_000_001n;
    const at = (from: bigint, to: bigint): TreeSpan => ({
      spanId: "x",
      parentSpanId: null,
      startTimeUnixNano: String(from),
      endTimeUnixNano: String(to),
    });
    const axis = axisOf([at(start, start + 4n)]);
    expect(barOf(at(start + 1n, start + 3n), axis)).toEqual({ offset: 25, width: 50 });
  });

  it("ticks the axis evenly from zero to the trace's duration", () => {
    const ticks = axisTicks({ start: 0n, end: 2_000_000_000n }, 4);
    expect(ticks.map((t) => [t.percent, formatNanos(t.ns)])).toEqual([
      [0, "0"],
      [25, "500 ms"],
      [50, "1.00 s"],
      [75, "1.50 s"],
      [100, "2.00 s"],
    ]);
  });

  it("formats durations at the scale a person reads them", () => {
    expect(formatNanos(850_000n)).toBe("850 µs");
    expect(formatNanos(12_400_000n)).toBe("12 ms");
    expect(formatNanos(3_400_000n)).toBe("3.4 ms");
    expect(formatNanos(125_000_000_000n)).toBe("2 min 5 s");
  });
});
