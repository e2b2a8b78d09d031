import { describe, expect, test } from "vitest";
import { type SpanOutline, summarizeTrace } from "./trace-summary";

let counter = 0;
function outline(spec: Partial<SpanOutline> & { start: number; end: number }): SpanOutline {
  const { start, end, ...rest } = spec;
  return {
    spanId: `span-${String(++counter).padStart(4, "0")}`,
    parentSpanId: null,
    name: "span",
    startNs: String(start),
    endNs: String(end),
    statusCode: 0,
    sessionId: null,
    userId: null,
    tags: [],
    models: [],
    tokensInput: 0,
    tokensOutput: 0,
    costMicrocents: 0,
    ...rest,
  };
}

describe("a trace's summary", () => {
  test("spans from the earliest start to the latest end", () => {
    const summary = summarizeTrace([
      outline({ start: 50, end: 60, parentSpanId: "x" }),
      outline({ start: 10, end: 40 }),
      outline({ start: 20, end: 90, parentSpanId: "x" }),
    ]);
    expect(summary).toMatchObject({ spanCount: 3, startNs: "10", endNs: "90", durationNs: "80" });
  });

  test("names the span without a parent as the root, whatever the order", () => {
    const root = outline({ start: 5, end: 9, name: "agent" });
    const child = outline({ start: 1, end: 2, name: "llm", parentSpanId: root.spanId });
    expect(summarizeTrace([child, root])).toMatchObject({ rootSpanId: root.spanId, rootSpanName: "agent" });
  });

  test("lets the earliest span whose parent has not arrived stand in for the root", () => {
    const late = outline({ start: 30, end: 40, name: "late", parentSpanId: "aaaaaaaaaaaaaaaa" });
    const early = outline({ start: 10, end: 20, name: "early", parentSpanId: "bbbbbbbbbbbbbbbb" });
    const child = outline({ start: 5, end: 6, name: "child", parentSpanId: early.spanId });
    expect(summarizeTrace([late, child, early]).rootSpanName).toBe("early");
  });

  test("adds tokens and cost over every span and counts the errors", () => {
    const summary = summarizeTrace([
      outline({ start: 1, end: 2, tokensInput: 10, tokensOutput: 1, costMicrocents: 5, statusCode: 2 }),
      outline({ start: 1, end: 2, tokensInput: 20, tokensOutput: 2, costMicrocents: 7, statusCode: 1 }),
    ]);
    expect(summary).toMatchObject({
      errorCount: 1,
      tokensInput: 30,
      tokensOutput: 3,
      tokensTotal: 33,
      costTotalMicrocents: 12,
    });
  });

  test("prefers the root's session and user, else the earliest span's", () => {
    const root = outline({ start: 9, end: 10, userId: "root-user" });
    const summary = summarizeTrace([
      outline({ start: 1, end: 2, parentSpanId: root.spanId, sessionId: "early", userId: "child-user" }),
      root,
    ]);
    expect(summary).toMatchObject({ sessionId: "early", userId: "root-user" });
  });

  test("collects tags and models once each, sorted", () => {
    const summary = summarizeTrace([
      outline({ start: 1, end: 2, tags: ["b", "a"], models: ["gpt-4o"] }),
      outline({ start: 1, end: 2, tags: ["a"], models: ["claude", "gpt-4o"] }),
    ]);
    expect(summary).toMatchObject({ tags: ["a", "b"], models: ["claude", "gpt-4o"] });
  });

  test("keeps nanosecond times exact beyond 2^53", () => {
    const summary = summarizeTrace([outline({ start: 0, end: 0, endNs: "1714564800123456789" })]);
    expect(summary.durationNs).toBe("1714564800123456789");
  });
});
