import { type Experiment, operations } from "@svc/contracts";
import { availableBackends, makeProject } from "@svc/testing";
import { deleteRows, insertRows, makeDataset, type RowSeed, updateRow } from "@svc/testing/datasets";
import { describe, expect, test } from "vitest";
import { type ExperimentsSuite, experimentsSuite, failure } from "../test-support";

const rows = (count: number): RowSeed[] =>
  Array.from({ length: count }, (_, i) => ({
    id: `q${i}`,
    input: { question: `${i}+${i}?` },
    expectedOutput: String(i + i),
  }));

async function datasetWith(suite: ExperimentsSuite, seeds: readonly RowSeed[]) {
  const dataset = await makeDataset(suite.db, suite.project);
  if (seeds.length > 0) await insertRows(suite.db, dataset, seeds);
  return dataset;
}

describe.each(availableBackends())("experiments (%s)", (backendName) => {
  const suite = experimentsSuite(backendName);

  const start = (datasetSlug: string, body: Record<string, unknown>, as = {}) =>
    suite.call(operations.createExperiment, { params: { datasetSlug }, body }, as);
  const record = (experimentId: string, results: unknown[], as = {}) =>
    suite.call(operations.recordExperimentResults, { params: { experimentId }, body: { results } }, as);
  const pending = (experimentId: string, query: Record<string, string> = {}) =>
    suite.call(operations.listExperimentPendingRows, { params: { experimentId }, query });
  const results = (experimentId: string, query: Record<string, string> = {}) =>
    suite.call(operations.listExperimentResults, { params: { experimentId }, query });
  const get = (experimentId: string) => suite.call(operations.getExperiment, { params: { experimentId } });

  test("starts pinned to the current version, and the pinned rows stay as they were", async () => {
    const dataset = await datasetWith(suite, rows(3));
    const experiment = await start(dataset.slug, { name: "baseline", metadata: { model: "m1" } });
    expect(experiment).toMatchObject({
      name: "baseline",
      version: 1,
      status: "running",
      rows: 3,
      results: 0,
      errors: 0,
      carried: 0,
      baseExperimentId: null,
      metadata: { model: "m1" },
      actor: { kind: "apiKey", id: "experiments-test" },
      scores: {},
    });
    await updateRow(suite.db, dataset, "q1", { input: "changed later" });

    const page = await pending(experiment.id);
    expect(page.items.map((row) => [row.rowId, row.input, row.version])).toEqual([
      ["q0", { question: "0+0?" }, 1],
      ["q1", { question: "1+1?" }, 1],
      ["q2", { question: "2+2?" }, 1],
    ]);
  });

  test("records results scored by its rules, and a new result replaces the old with its scores", async () => {
    const dataset = await datasetWith(suite, rows(3));
    const experiment = await start(dataset.slug, {
      name: "rules",
      evaluators: [
        { name: "exact", kind: "exact_match", trim: true },
        { name: "similar", kind: "levenshtein" },
      ],
    });
    expect(
      await record(experiment.id, [
        { rowId: "q0", output: " 0 ", latencyMs: 12.5, tokens: 30, costMicrocents: 400 },
        { rowId: "q1", output: "3", scores: [{ name: "helpful", value: true, comment: "fine" }] },
        { rowId: "q2", output: null, error: "timed out" },
      ]),
    ).toEqual({ recorded: 3 });

    const first = await results(experiment.id);
    expect(first.items.map((r) => [r.rowId, r.output, r.error, Object.keys(r.scores)])).toEqual([
      ["q0", " 0 ", null, ["exact", "similar"]],
      ["q1", "3", null, ["exact", "helpful", "similar"]],
      ["q2", null, "timed out", []],
    ]);
    const q1 = first.items[1];
    expect(q1?.input).toEqual({ question: "1+1?" });
    expect(q1?.expectedOutput).toBe("2");
    expect(q1?.scores.exact).toMatchObject({ value: false, source: "rule" });
    expect(q1?.scores.similar?.value).toBe(0);
    expect(q1?.scores.helpful).toMatchObject({ value: true, source: "code", comment: "fine" });
    expect(first.items[0]).toMatchObject({ latencyMs: 12.5, tokens: 30, costMicrocents: 400, rowVersion: 1 });

    await record(experiment.id, [{ rowId: "q1", output: "2" }]);
    const again = await results(experiment.id);
    expect(again.items[1]?.scores).toMatchObject({ exact: { value: true }, similar: { value: 1 } });
    expect(again.items[1]?.scores.helpful).toBeUndefined();

    const totals = await get(experiment.id);
    expect(totals).toMatchObject({
      results: 3,
      errors: 1,
      scores: { exact: { count: 2, mean: 1, min: 1, max: 1 }, similar: { count: 2, max: 1 } },
    });
    // " 0 " against "0": two edits in three characters.
    expect(totals.scores.similar?.min).toBeCloseTo(1 / 3, 5);
  });

  test("pending lists only rows without a result, and a runner that stopped resumes there", async () => {
    const dataset = await datasetWith(suite, rows(5));
    const experiment = await start(dataset.slug, { name: "resume" });
    const firstPage = await pending(experiment.id, { limit: "2" });
    expect(firstPage.items.map((row) => row.rowId)).toEqual(["q0", "q1"]);
    await record(experiment.id, [
      { rowId: "q0", output: "0" },
      { rowId: "q1", output: "2" },
    ]);
    const next = await pending(experiment.id, { limit: "2", cursor: firstPage.nextCursor as string });
    expect(next.items.map((row) => row.rowId)).toEqual(["q2", "q3"]);
    expect((await pending(experiment.id)).items.map((row) => row.rowId)).toEqual(["q2", "q3", "q4"]);
  });

  test("refuses rows not in the pinned version, and records nothing of that request", async () => {
    const dataset = await datasetWith(suite, rows(2));
    const experiment = await start(dataset.slug, { name: "strict" });
    await insertRows(suite.db, dataset, [{ id: "late", input: "x" }]);
    const refused = await failure(
      record(experiment.id, [
        { rowId: "q0", output: "0" },
        { rowId: "late", output: "?" },
        { rowId: "nope", output: "?" },
      ]),
    );
    expect(refused).toMatchObject({
      code: "unknown_row",
      details: { rowIds: ["late", "nope"], count: 2 },
    });
    expect(refused.message).toContain("not in the dataset at version 1");
    expect((await get(experiment.id)).results).toBe(0);
  });

  test("refuses bad batches with the problem named", async () => {
    const dataset = await datasetWith(suite, rows(1));
    const experiment = await start(dataset.slug, {
      name: "bad input",
      evaluators: [{ name: "exact", kind: "exact_match" }],
    });
    const tooMany = Array.from({ length: 1001 }, (_, i) => ({ rowId: `r${i}`, output: i }));
    expect(await failure(record(experiment.id, tooMany))).toMatchObject({
      code: "validation_failed",
      message: expect.stringContaining("body.results: must hold at most 1000 results"),
    });
    expect(
      await failure(
        record(experiment.id, [{ rowId: "q0", output: 1, scores: [{ name: "x", value: { a: 1 } }] }]),
      ),
    ).toMatchObject({
      code: "validation_failed",
      message: expect.stringContaining("body.results.0.scores.0.value"),
    });
    expect(
      await failure(
        record(experiment.id, [{ rowId: "q0", output: 1, scores: [{ name: "n".repeat(65), value: 1 }] }]),
      ),
    ).toMatchObject({
      code: "validation_failed",
      message: expect.stringContaining("must be 1-64 characters"),
    });
    expect(
      await failure(
        record(experiment.id, [{ rowId: "q0", output: 1, scores: [{ name: "exact", value: 1 }] }]),
      ),
    ).toMatchObject({ code: "validation_failed", message: expect.stringContaining("evaluators") });
    expect(
      await failure(
        record(experiment.id, [
          { rowId: "q0", output: 1 },
          { rowId: "q0", output: 2 },
        ]),
      ),
    ).toMatchObject({
      code: "validation_failed",
      message: expect.stringContaining('row "q0" has two results'),
    });
    expect((await get(experiment.id)).results).toBe(0);
  });

  test("refuses an evaluator that cannot run, and a base of another dataset, before creating anything", async () => {
    const dataset = await datasetWith(suite, rows(1));
    const other = await datasetWith(suite, rows(1));
    expect(
      await failure(
        start(dataset.slug, { name: "x", evaluators: [{ name: "re", kind: "regex", pattern: "(a" }] }),
      ),
    ).toMatchObject({
      code: "validation_failed",
      message: expect.stringMatching(/body\.evaluators\.0\.pattern: evaluator "re": .*missing closing \)/),
    });
    expect(
      await failure(
        start(dataset.slug, {
          name: "x",
          evaluators: [{ name: "shape", kind: "json_schema", schema: { type: "no-such-type" } }],
        }),
      ),
    ).toMatchObject({
      code: "validation_failed",
      message: expect.stringContaining("body.evaluators.0.schema"),
    });
    const foreign = await start(other.slug, { name: "other" });
    expect(await failure(start(dataset.slug, { name: "x", baseExperimentId: foreign.id }))).toMatchObject({
      code: "validation_failed",
      message: expect.stringContaining("another dataset"),
    });
    expect(await failure(start(dataset.slug, { name: "x", version: 9 }))).toMatchObject({
      code: "validation_failed",
      message: expect.stringContaining("has no version 9"),
    });
    const listed = await suite.call(operations.listExperiments, { params: { datasetSlug: dataset.slug } });
    expect(listed.items).toEqual([]);
  });

  test("a finished experiment records nothing more", async () => {
    const dataset = await datasetWith(suite, rows(1));
    const experiment = await start(dataset.slug, { name: "done" });
    const finished = await suite.call(operations.updateExperiment, {
      params: { experimentId: experiment.id },
      body: { status: "finished", name: "done (final)" },
    });
    expect(finished).toMatchObject({ status: "finished", name: "done (final)" });
    expect(finished.finishedAt).not.toBeNull();
    expect(await failure(record(experiment.id, [{ rowId: "q0", output: "0" }]))).toMatchObject({
      code: "conflict",
    });
    expect(
      await failure(
        suite.call(operations.recordExperimentScores, {
          params: { experimentId: experiment.id },
          body: { scores: [{ name: "overall", value: 1 }] },
        }),
      ),
    ).toMatchObject({ code: "conflict" });
  });

  test("a retry with the same Idempotency-Key records once", async () => {
    const dataset = await datasetWith(suite, rows(2));
    const experiment = await start(dataset.slug, { name: "retry" });
    const batch = [{ rowId: "q0", output: "0" }];
    const as = { idempotencyKey: `batch-${experiment.id}` };
    expect(await record(experiment.id, batch, as)).toEqual({ recorded: 1 });
    expect(await record(experiment.id, batch, as)).toEqual({ recorded: 1 });
    expect(await failure(record(experiment.id, [{ rowId: "q1", output: "2" }], as))).toMatchObject({
      code: "idempotency_key_reused",
    });
    expect((await get(experiment.id)).results).toBe(1);
  });

  test("a retried start with the same Idempotency-Key answers the experiment it made, once", async () => {
    const dataset = await datasetWith(suite, rows(1));
    const as = { idempotencyKey: `start-${dataset.id}` };
    const first = await start(dataset.slug, { name: "once" }, as);
    const again = await start(dataset.slug, { name: "once" }, as);
    expect(again).toEqual(first);
    const listed = await suite.call(operations.listExperiments, { params: { datasetSlug: dataset.slug } });
    expect(listed.items.map((e) => e.id)).toEqual([first.id]);
  });

  test("scores from a person's session are human; other rows and organisations are refused", async () => {
    const dataset = await datasetWith(suite, rows(2));
    const experiment = await start(dataset.slug, { name: "review" });
    await record(experiment.id, [{ rowId: "q0", output: "0" }]);
    const session = { kind: "session", id: "s-1" } as const;
    await suite.call(
      operations.recordExperimentScores,
      {
        params: { experimentId: experiment.id },
        body: {
          scores: [
            { rowId: "q0", name: "correct", value: 4, comment: "close enough", source: "code" },
            { name: "overall", value: "good" },
          ],
        },
      },
      { actor: session },
    );
    const [result] = (await results(experiment.id)).items;
    expect(result?.scores.correct).toEqual({
      value: 4,
      source: "human",
      comment: "close enough",
      actor: session,
    });
    expect((await get(experiment.id)).scores.overall).toEqual({ count: 1, mean: null, min: null, max: null });
    expect(
      await failure(
        suite.call(operations.recordExperimentScores, {
          params: { experimentId: experiment.id },
          body: { scores: [{ rowId: "q1", name: "correct", value: 1 }] },
        }),
      ),
    ).toMatchObject({ code: "unknown_row", details: { rowIds: ["q1"] } });
    expect(
      await failure(
        suite.call(
          operations.recordExperimentResults,
          { params: { experimentId: experiment.id }, body: { results: [{ rowId: "q1", output: 1 }] } },
          { role: "viewer" },
        ),
      ),
    ).toMatchObject({ code: "forbidden" });
    const stranger = await makeProject(suite.db);
    expect(
      await failure(
        suite.call(
          operations.getExperiment,
          { params: { experimentId: experiment.id, projectSlug: stranger.projectSlug } },
          { organizationId: stranger.organizationId },
        ),
      ),
    ).toMatchObject({ code: "not_found" });
  });

  test("filters results by error and by a score below a value", async () => {
    const dataset = await datasetWith(suite, rows(4));
    const experiment = await start(dataset.slug, {
      name: "filters",
      evaluators: [{ name: "close", kind: "numeric_close", tolerance: 1 }],
    });
    await record(experiment.id, [
      { rowId: "q0", output: 0 },
      { rowId: "q1", output: "5" },
      { rowId: "q2", output: "4.5" },
      { rowId: "q3", output: null, error: "boom" },
    ]);
    const ids = async (query: Record<string, string>) =>
      (await results(experiment.id, query)).items.map((r) => r.rowId);
    expect(await ids({ errored: "true" })).toEqual(["q3"]);
    expect(await ids({ errored: "false" })).toEqual(["q0", "q1", "q2"]);
    expect(await ids({ score: "close", below: "1" })).toEqual(["q1"]);
    expect(await failure(results(experiment.id, { below: "1" }))).toMatchObject({
      code: "validation_failed",
      message: "Request is invalid: query.score: score and below go together",
    });
    const page = await results(experiment.id, { errored: "false", limit: "1" });
    expect(await failure(results(experiment.id, { cursor: page.nextCursor as string }))).toMatchObject({
      code: "validation_failed",
      message: expect.stringContaining("other filters"),
    });
  });

  test("an incremental run carries unchanged rows' results and leaves only new and changed rows pending", async () => {
    const dataset = await datasetWith(suite, rows(5));
    const evaluators = [{ name: "exact", kind: "exact_match" }];
    const base = await start(dataset.slug, { name: "v1", evaluators });
    await record(base.id, [
      { rowId: "q0", output: "0", scores: [{ name: "judge", value: 0.9 }] },
      { rowId: "q1", output: "2" },
      { rowId: "q2", output: "wrong" },
      { rowId: "q3", output: "6" },
      { rowId: "q4", output: "8" },
    ]);
    await updateRow(suite.db, dataset, "q1", { expectedOutput: "two" });
    await deleteRows(suite.db, dataset, ["q3"]);
    await insertRows(suite.db, dataset, [{ id: "q5", input: "new", expectedOutput: "10" }]);

    const next = await start(dataset.slug, {
      name: "v2",
      baseExperimentId: base.id,
      evaluators: [...evaluators, { name: "has-digit", kind: "regex", pattern: "\\d" }],
    });
    expect(next).toMatchObject({ version: 4, rows: 5, results: 3, carried: 3, baseExperimentId: base.id });
    expect((await pending(next.id)).items.map((row) => row.rowId)).toEqual(["q1", "q5"]);
    const carried = (await results(next.id)).items;
    expect(carried.map((r) => [r.rowId, r.carriedFrom, Object.keys(r.scores)])).toEqual([
      ["q0", base.id, ["exact", "has-digit", "judge"]],
      ["q2", base.id, ["exact", "has-digit"]],
      ["q4", base.id, ["exact", "has-digit"]],
    ]);
    expect(carried[1]?.scores["has-digit"]?.value).toBe(false);

    await record(next.id, [
      { rowId: "q1", output: "two" },
      { rowId: "q5", output: "10" },
      { rowId: "q2", output: "4" },
    ]);
    const compared = await suite.call(operations.compareExperiments, {
      params: { experimentId: base.id, otherExperimentId: next.id },
    });
    expect(compared.items.map((e) => [e.rowId, e.change, e.rowChanged])).toEqual([
      ["q2", "improved", false],
      ["q5", "added", true],
      ["q3", "removed", true],
      ["q0", "same", false],
      ["q1", "same", true],
      ["q4", "same", false],
    ]);
    expect(compared.summary).toEqual({
      scores: { exact: { a: 0.8, b: 1, delta: 0.2 }, judge: { a: 0.9, b: 0.9, delta: 0 } },
      regressed: 0,
      improved: 1,
      same: 3,
      added: 1,
      removed: 1,
      rowsChanged: 3,
    });
    const reversed = await suite.call(operations.compareExperiments, {
      params: { experimentId: next.id, otherExperimentId: base.id },
      query: { change: "regressed" },
    });
    expect(reversed.items.map((e) => e.rowId)).toEqual(["q2"]);
    expect(reversed.items[0]?.a?.output).toBe("4");
    expect(reversed.items[0]?.b?.output).toBe("wrong");
  });

  test("compares row by row with regressions first, a failure counting as one", async () => {
    const dataset = await datasetWith(suite, rows(4));
    const evaluators = [{ name: "exact", kind: "exact_match" }];
    const a = await start(dataset.slug, { name: "a", evaluators });
    const b = await start(dataset.slug, { name: "b", evaluators });
    await record(a.id, [
      { rowId: "q0", output: "0" },
      { rowId: "q1", output: "2" },
      { rowId: "q2", output: "x" },
      { rowId: "q3", output: "6" },
    ]);
    await record(b.id, [
      { rowId: "q0", output: "0" },
      { rowId: "q1", output: "nope" },
      { rowId: "q2", output: "4" },
      { rowId: "q3", output: null, error: "crashed" },
    ]);
    const first = await suite.call(operations.compareExperiments, {
      params: { experimentId: a.id, otherExperimentId: b.id },
      query: { limit: "2" },
    });
    expect(first.items.map((e) => [e.rowId, e.change])).toEqual([
      ["q1", "regressed"],
      ["q3", "regressed"],
    ]);
    const second = await suite.call(operations.compareExperiments, {
      params: { experimentId: a.id, otherExperimentId: b.id },
      query: { limit: "2", cursor: first.nextCursor as string },
    });
    expect(second.items.map((e) => [e.rowId, e.change])).toEqual([
      ["q2", "improved"],
      ["q0", "same"],
    ]);
    expect(second).toMatchObject({ hasMore: false, summary: { regressed: 2, improved: 1, same: 1 } });
  });

  test("a comparison is kept once per state of the two, follows every later write, and goes with them", async () => {
    const dataset = await datasetWith(suite, rows(3));
    const evaluators = [{ name: "exact", kind: "exact_match" }];
    const a = await start(dataset.slug, { name: "a", evaluators });
    const b = await start(dataset.slug, { name: "b", evaluators });
    await record(a.id, [
      { rowId: "q0", output: "0" },
      { rowId: "q1", output: "2" },
    ]);
    await record(b.id, [
      { rowId: "q0", output: "0" },
      { rowId: "q1", output: "2" },
    ]);
    const compare = () =>
      suite.call(operations.compareExperiments, {
        params: { experimentId: a.id, otherExperimentId: b.id },
        query: {},
      });
    const kept = () =>
      suite.db
        .selectFrom("experiment_comparisons")
        .select(["id", "a_revision", "b_revision"])
        .where("a_id", "=", a.id)
        .execute();
    // Built once though asked for three times at once.
    const [first] = await Promise.all([compare(), compare(), compare()]);
    expect(first.summary).toMatchObject({ same: 2, regressed: 0 });
    expect(await kept()).toHaveLength(1);
    const built = (await kept())[0]?.id;
    await compare();
    expect((await kept())[0]?.id).toBe(built);

    // A result recorded in b, then a score added to a: each is in the next comparison.
    await record(b.id, [{ rowId: "q1", output: "wrong" }]);
    expect((await compare()).items.map((e) => [e.rowId, e.change])).toEqual([
      ["q1", "regressed"],
      ["q0", "same"],
    ]);
    await suite.call(operations.recordExperimentScores, {
      params: { experimentId: a.id },
      body: { scores: [{ rowId: "q0", name: "useful", value: 1 }] },
    });
    await suite.call(operations.recordExperimentScores, {
      params: { experimentId: b.id },
      body: { scores: [{ rowId: "q0", name: "useful", value: 0 }] },
    });
    const after = await compare();
    expect(after.items.map((e) => [e.rowId, e.change])).toEqual([
      ["q0", "regressed"],
      ["q1", "regressed"],
    ]);
    expect(after.summary.scores.useful).toEqual({ a: 1, b: 0, delta: -1 });
    // Only the latest state of the pair is kept, and deleting either side drops it.
    expect(await kept()).toHaveLength(1);
    const comparisonId = (await kept())[0]?.id as string;
    const comparedRows = () =>
      suite.db
        .selectFrom("experiment_compared_rows")
        .select("row_id")
        .where("comparison_id", "=", comparisonId)
        .execute();
    expect(await comparedRows()).toHaveLength(2);
    await suite.call(operations.deleteExperiment, { params: { experimentId: b.id } });
    expect(await kept()).toHaveLength(0);
    expect(await comparedRows()).toHaveLength(0);
  });

  test("an experiment's results and scores go with it, and with its dataset", async () => {
    const dataset = await datasetWith(suite, rows(2));
    const evaluators = [{ name: "exact", kind: "exact_match" }];
    const [one, two] = [
      await start(dataset.slug, { name: "one", evaluators }),
      await start(dataset.slug, { name: "two", evaluators }),
    ];
    for (const experiment of [one, two]) {
      await record(experiment.id, [
        { rowId: "q0", output: "0" },
        { rowId: "q1", output: "2" },
      ]);
    }
    const stored = async () => {
      const results = await suite.db
        .selectFrom("experiment_results")
        .select("experiment_id")
        .where("experiment_id", "in", [one.id, two.id])
        .execute();
      const scores = await suite.db
        .selectFrom("experiment_scores")
        .select("experiment_id")
        .where("experiment_id", "in", [one.id, two.id])
        .execute();
      return {
        results: results.map((r) => r.experiment_id).sort(),
        scores: scores.map((s) => s.experiment_id).sort(),
      };
    };
    expect(await stored()).toEqual({
      results: [one.id, one.id, two.id, two.id].sort(),
      scores: [one.id, one.id, two.id, two.id].sort(),
    });
    await suite.call(operations.deleteExperiment, { params: { experimentId: one.id } });
    expect(await stored()).toEqual({ results: [two.id, two.id], scores: [two.id, two.id] });
    await suite.db.deleteFrom("datasets").where("id", "=", dataset.id).execute();
    expect(await stored()).toEqual({ results: [], scores: [] });
  });

  test("lists a dataset's experiments newest first, page by page, and deletes one", async () => {
    const dataset = await datasetWith(suite, rows(1));
    const made: Experiment[] = [];
    for (const name of ["one", "two", "three"]) made.push(await start(dataset.slug, { name }));
    const list = (query: Record<string, string>) =>
      suite.call(operations.listExperiments, { params: { datasetSlug: dataset.slug }, query });
    const first = await list({ limit: "2" });
    const second = await list({ limit: "2", cursor: first.nextCursor as string });
    expect([...first.items, ...second.items].map((e) => e.name)).toEqual(["three", "two", "one"]);
    await suite.call(operations.deleteExperiment, { params: { experimentId: made[1]?.id as string } });
    expect((await list({})).items.map((e) => e.name)).toEqual(["three", "one"]);
    expect(await failure(get(made[1]?.id as string))).toMatchObject({ code: "not_found" });
  });
});
