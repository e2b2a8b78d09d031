import type { Experiment } from "@svc/sdk";
import { describe, expect, it } from "vitest";
import { distributions, formatCost, formatDelta, histogram, meanTrend, scoreNames } from "./scores";

function makeExperiment(id: string, createdAt: string, scores: Experiment["scores"]): Experiment {
  return {
    id,
    datasetId: "d1",
    name: `run ${id}`,
    version: 1,
    baseExperimentId: null,
    metadata: null,
    status: "finished",
    evaluators: [],
    createdAt,
    finishedAt: null,
    actor: { kind: "apiKey", id: "k1" },
    rows: 3,
    results: 3,
    errors: 0,
    carried: 0,
    scores,
  };
}

const summary = (mean: number | null) => ({ count: 2, mean, min: mean, max: mean });
const result = (scores: Record<string, number | boolean | string>) => ({
  scores: Object.fromEntries(
    Object.entries(scores).map(([name, value]) => [
      name,
      { value, source: "rule" as const, comment: null, actor: { kind: "apiKey" as const, id: "k1" } },
    ]),
  ),
});

describe("meanTrend", () => {
  it("orders experiments oldest first and leaves out scores without a mean", () => {
    const newest = makeExperiment("b", "2026-02-01T00:00:00Z", { exact: summary(0.5), topic: summary(null) });
    const oldest = makeExperiment("a", "2026-01-01T00:00:00Z", {
      exact: summary(0.25),
      similarity: summary(0.9),
    });
    expect(meanTrend([newest, oldest])).toEqual([
      { id: "a", name: "run a", createdAt: "2026-01-01T00:00:00Z", means: { exact: 0.25, similarity: 0.9 } },
      { id: "b", name: "run b", createdAt: "2026-02-01T00:00:00Z", means: { exact: 0.5 } },
    ]);
  });

  it("names every score of every experiment once, sorted", () => {
    const a = makeExperiment("a", "2026-01-01T00:00:00Z", { similarity: summary(1), exact: summary(1) });
    const b = makeExperiment("b", "2026-01-02T00:00:00Z", { exact: summary(0), topic: summary(null) });
    expect(scoreNames([a, b])).toEqual(["exact", "similarity", "topic"]);
  });
});

describe("distributions", () => {
  it("bins numbers between the lowest and the highest, the highest in the last bin", () => {
    expect(histogram([0, 0.1, 0.5, 0.9, 1], 2)).toEqual([
      { label: "0–0.5", count: 2 },
      { label: "0.5–1", count: 3 },
    ]);
  });

  it("gives one bar when every number is the same", () => {
    expect(histogram([3, 3, 3], 10)).toEqual([{ label: "3", count: 3 }]);
  });

  it("counts booleans as pass and fail and categories by value, the most frequent first", () => {
    const results = [
      result({ exact: true, topic: "billing", stars: 4 }),
      result({ exact: false, topic: "refund" }),
      result({ exact: true, topic: "refund", stars: 5 }),
    ];
    expect(distributions(results, 2)).toEqual([
      {
        name: "exact",
        kind: "categories",
        count: 3,
        bars: [
          { label: "pass", count: 2 },
          { label: "fail", count: 1 },
        ],
      },
      {
        name: "stars",
        kind: "numeric",
        count: 2,
        bars: [
          { label: "4–4.5", count: 1 },
          { label: "4.5–5", count: 1 },
        ],
      },
      {
        name: "topic",
        kind: "categories",
        count: 3,
        bars: [
          { label: "refund", count: 2 },
          { label: "billing", count: 1 },
        ],
      },
    ]);
  });
});

describe("formatting", () => {
  it("signs a delta and keeps three decimals", () => {
    expect([
      formatDelta(0.25),
      formatDelta(-0.1),
      formatDelta(0),
      formatDelta(0.00001),
      formatDelta(null),
    ]).toEqual(["+0.25", "−0.1", "0", "0", "–"]);
  });

  it("gives a cost in millionths of a cent in dollars", () => {
    expect(formatCost(150_000_000)).toBe("$1.5");
    expect(formatCost(1_234_567)).toBe("$0.0123");
  });
});
