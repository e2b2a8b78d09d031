import { describe, expect, test } from "vitest";
import { bucketStartOf, type TraceMetricFacts, traceMetricDeltas } from "./trace-metric-deltas";
import { latencyBucketOf, latencyQuantile } from "./trace-metrics";

const trace = (overrides: Partial<TraceMetricFacts> = {}): TraceMetricFacts => ({
  startNs: "1714562430000000000", // 2024-05-01T11:20:30Z
  durationNs: "250000000",
  failed: false,
  rootSpanName: "agent",
  models: ["gpt-4o"],
  tags: [],
  tokensInput: 10,
  tokensOutput: 2,
  costMicrocents: 7,
  ...overrides,
});

describe("trace metrics", () => {
  test("counts a new trace in its minute and hour, for all traces, its root, each model and no tag", () => {
    const deltas = traceMetricDeltas([{ before: null, after: trace() }]);
    expect(deltas.map((d) => [d.width, d.grouping, d.bucketStart, d.groupValue, d.traces])).toEqual([
      ["hour", "all", "2024-05-01T11:00:00.000Z", "", 1],
      ["hour", "model", "2024-05-01T11:00:00.000Z", "gpt-4o", 1],
      ["hour", "rootSpanName", "2024-05-01T11:00:00.000Z", "agent", 1],
      ["hour", "tag", "2024-05-01T11:00:00.000Z", "", 1],
      ["minute", "all", "2024-05-01T11:20:00.000Z", "", 1],
      ["minute", "model", "2024-05-01T11:20:00.000Z", "gpt-4o", 1],
      ["minute", "rootSpanName", "2024-05-01T11:20:00.000Z", "agent", 1],
      ["minute", "tag", "2024-05-01T11:20:00.000Z", "", 1],
    ]);
    expect(deltas[0]).toMatchObject({
      tokensInput: 10,
      tokensOutput: 2,
      costMicrocents: 7,
      latency: { [latencyBucketOf("250000000")]: 1 },
    });
  });

  test("moves a trace whose summary changed, and changes nothing when it did not", () => {
    const before = trace();
    expect(traceMetricDeltas([{ before, after: trace() }])).toEqual([]);
    const grown = traceMetricDeltas([
      { before, after: trace({ failed: true, tokensInput: 15, models: ["gpt-4o", "o3"] }) },
    ]);
    const hourAll = grown.find((d) => d.width === "hour" && d.grouping === "all");
    expect(hourAll).toMatchObject({ traces: 0, errors: 1, tokensInput: 5, latency: {} });
    expect(grown.find((d) => d.width === "hour" && d.groupValue === "o3")).toMatchObject({ traces: 1 });
  });

  test("reads buckets from before 1970's end to the largest time", () => {
    expect(bucketStartOf("0", "hour")).toBe("1970-01-01T00:00:00.000Z");
    expect(bucketStartOf("9223372036854775807", "minute")).toBe("2262-04-11T23:47:00.000Z");
  });

  test("reads percentiles within 5% of the durations counted", () => {
    const histogram = new Map<number, number>();
    const durationsMs = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10_000, 60_000];
    for (const ms of durationsMs) {
      const bucket = latencyBucketOf(BigInt(ms) * 1_000_000n);
      histogram.set(bucket, (histogram.get(bucket) ?? 0) + 1);
    }
    const median = latencyQuantile(histogram, 0.5);
    expect(Math.abs(median - 100) / 100).toBeLessThanOrEqual(0.05);
    expect(Math.abs(latencyQuantile(histogram, 1) - 60_000) / 60_000).toBeLessThanOrEqual(0.05);
    expect(latencyQuantile(new Map(), 0.5)).toBe(0);
  });
});
