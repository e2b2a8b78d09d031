import { randomBytes } from "node:crypto";
import { trace } from "@opentelemetry/api";
import { BasicTracerProvider } from "@opentelemetry/sdk-trace-base";
import type { Target } from "@svc/testing/platform";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { platforms } from "../../testing/platform.js";
import { Client, type DatasetRow, taskAnswer } from "../src/index.js";

const unique = (prefix: string) => `${prefix} ${randomBytes(4).toString("hex")}`;

describe.each(platforms())(
  "the TypeScript SDK's experiment runner against the %s platform",
  (_name, start) => {
    let platform: Target;
    let client: Client;
    let projectSlug: string;
    let datasetSlug: string;

    beforeAll(async () => {
      platform = await start();
      client = new Client({ apiKey: platform.ownerKey, baseUrl: platform.baseUrl });
      projectSlug = (await client.projects.create({ name: unique("runner") })).slug;
      datasetSlug = (await client.datasets.create(projectSlug, { name: unique("qa") })).slug;
      await client.datasets.insertRows(projectSlug, datasetSlug, {
        rows: Array.from({ length: 30 }, (_, i) => ({
          id: `q${String(i).padStart(2, "0")}`,
          input: { a: i, b: i },
          expectedOutput: String(i * 2),
        })),
      });
    });
    afterAll(async () => {
      await platform?.stop();
    });

    const add = (row: DatasetRow) => {
      const { a, b } = row.input as { a: number; b: number };
      return String(a + b);
    };

    it("runs a task over every row with bounded concurrency, scores it both ways, and records every result", async () => {
      let running = 0;
      let most = 0;
      const seen: string[] = [];
      const outcome = await client.experiments.run({
        projectSlug,
        datasetSlug,
        name: "adder",
        concurrency: 4,
        batchSize: 7,
        evaluators: [
          { name: "exact", kind: "exact_match" },
          { name: "short", evaluate: ({ output }) => String(output).length <= 1 },
        ],
        task: async (row) => {
          running += 1;
          most = Math.max(most, running);
          seen.push(row.rowId);
          await new Promise((resolve) => setTimeout(resolve, 5));
          running -= 1;
          if (row.rowId === "q07") throw new Error("model overloaded");
          return row.rowId === "q03"
            ? taskAnswer({ output: "wrong", tokens: 12, costMicrocents: 300 })
            : add(row);
        },
      });
      expect(most).toBe(4);
      expect(seen).toHaveLength(30);
      expect(outcome.progress).toEqual({ done: 30, failed: 1, recorded: 30 });
      expect(outcome.experiment).toMatchObject({ status: "finished", results: 30, errors: 1 });
      expect(outcome.experiment.scores.exact).toMatchObject({ count: 29, mean: 28 / 29 });
      expect(outcome.experiment.scores.short?.count).toBe(29);
      const failed = await client.experiments.results(projectSlug, outcome.experiment.id, { errored: true });
      expect(failed.items.map((r) => [r.rowId, r.error])).toEqual([["q07", "Error: model overloaded"]]);
      const q03 = await client.experiments.results(projectSlug, outcome.experiment.id, {
        score: "exact",
        below: 1,
      });
      expect(q03.items.map((r) => [r.rowId, r.tokens, r.costMicrocents])).toEqual([["q03", 12, 300]]);
    });

    it("resumes a run that stopped half-way, calling the task only on rows without a result", async () => {
      const stop = new AbortController();
      let calls = 0;
      const first = client.experiments.run({
        projectSlug,
        datasetSlug,
        name: "interrupted",
        concurrency: 1,
        batchSize: 5,
        signal: stop.signal,
        task: (row) => {
          calls += 1;
          if (calls === 12) stop.abort();
          return add(row);
        },
      });
      await expect(first).rejects.toThrow();
      const [started] = (await client.experiments.list(projectSlug, datasetSlug, { limit: 1 })).items;
      expect(started?.name).toBe("interrupted");
      const recordedBefore = started?.results ?? 0;
      expect(recordedBefore).toBeGreaterThanOrEqual(5);
      expect(recordedBefore).toBeLessThan(30);

      let resumedCalls = 0;
      const resumed = await client.experiments.run({
        projectSlug,
        datasetSlug,
        name: "interrupted",
        experimentId: started?.id,
        task: (row) => {
          resumedCalls += 1;
          return add(row);
        },
      });
      expect(resumedCalls).toBe(30 - recordedBefore);
      expect(resumed.experiment).toMatchObject({ results: 30, status: "finished" });
    });

    it("re-runs only the rows edited since its base, and records the task's trace", async () => {
      const base = await client.experiments.run({ projectSlug, datasetSlug, name: "v1", task: add });
      await client.datasets.updateRow(projectSlug, datasetSlug, "q01", { input: { a: 5, b: 5 } });
      await client.datasets.updateRow(projectSlug, datasetSlug, "q02", { input: { a: 1, b: 1 } });
      const provider = new BasicTracerProvider();
      trace.setGlobalTracerProvider(provider);
      const called: string[] = [];
      try {
        const next = await client.experiments.run({
          projectSlug,
          datasetSlug,
          name: "v2",
          base: base.experiment.id,
          task: (row) => {
            called.push(row.rowId);
            return add(row);
          },
        });
        expect(called.sort()).toEqual(["q01", "q02"]);
        expect(next.experiment).toMatchObject({ carried: 28, results: 30 });
        const results = await client.experiments.results(projectSlug, next.experiment.id, { limit: 3 });
        expect(results.items.map((r) => [r.rowId, r.carriedFrom === null])).toEqual([
          ["q00", false],
          ["q01", true],
          ["q02", true],
        ]);
        expect(results.items[1]?.traceId).toMatch(/^[0-9a-f]{32}$/);
      } finally {
        trace.disable();
        await provider.shutdown();
      }
    });
  },
);
