import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { client } from "../../http";
import { startedForSuite } from "../../platform";
import { startEmbedded } from "../../targets";
import {
  chromiumAvailable,
  expectAccessible,
  openSignedInPage,
  screenshot,
  signIn,
  watchedPageForSuite,
} from "../../web/harness";

interface Score {
  value: unknown;
  source: string;
  comment: string | null;
  actor: { kind: string; id: string };
}
interface Result {
  rowId: string;
  scores: Record<string, Score>;
}
interface Row {
  rowId: string;
  input: unknown;
  expectedOutput?: unknown;
}

/**
 * Experiments in the web application, in Debian's Chromium against the embedded platform: a dataset's
 * experiments and their chart, one experiment's results filtered and scored from the keyboard, two
 * experiments compared, and a filtered view's rows copied into another dataset.
 */
describe.runIf(chromiumAvailable())("the web application's experiments", () => {
  const platform = startedForSuite(() => startEmbedded());
  const watched = watchedPageForSuite(() => platform.baseUrl);
  const api = () => client(platform.baseUrl, platform.ownerKey);
  const project = "/v1/projects/evals";
  const golden = `${project}/datasets/golden`;
  let a = "";
  let b = "";

  const evaluators = [
    { name: "exact", kind: "exact_match", trim: true },
    { name: "similarity", kind: "levenshtein" },
  ];
  const start = async (name: string) => {
    const created = await api().post<{ id: string }>(`${golden}/experiments`, { name, evaluators });
    expect(created.status).toBe(201);
    return created.body.id;
  };
  const record = async (id: string, results: unknown[]) => {
    const recorded = await api().post(`${project}/experiments/${id}/results`, { results });
    expect(recorded.status, JSON.stringify(recorded.body)).toBe(200);
  };
  const resultsOf = async (id: string) =>
    (await api().get<{ items: Result[] }>(`${project}/experiments/${id}/results?limit=200`)).body.items;

  beforeAll(async () => {
    expect((await api().post("/v1/projects", { name: "Evals" })).status).toBe(201);
    expect((await api().post(`${project}/datasets`, { name: "Golden" })).status).toBe(201);
    expect((await api().post(`${project}/datasets`, { name: "Hard cases" })).status).toBe(201);
    const rows = [
      { id: "q1", input: { q: "2+2?" }, expectedOutput: "4" },
      { id: "q2", input: { q: "capital of France?" }, expectedOutput: "Paris" },
      { id: "q3", input: { q: "largest planet?" }, expectedOutput: "Jupiter" },
      { id: "q4", input: { q: "water boils at, in C?" }, expectedOutput: "100" },
    ];
    expect((await api().post(`${golden}/rows`, { rows })).status).toBe(201);

    // A: every answer right, finished. B: after q3 changed in the dataset, two answers wrong, one error.
    a = await start("baseline prompt");
    await record(a, [
      { rowId: "q1", output: "4", latencyMs: 320, tokens: 12, costMicrocents: 1_500_000 },
      { rowId: "q2", output: "Paris", latencyMs: 410, tokens: 15 },
      { rowId: "q3", output: "Jupiter", latencyMs: 380 },
      { rowId: "q4", output: "100", latencyMs: 290 },
    ]);
    expect((await api().patch(`${project}/experiments/${a}`, { status: "finished" })).status).toBe(200);
    expect(
      (await api().patch(`${golden}/rows/q3`, { input: { q: "largest planet of the solar system?" } }))
        .status,
    ).toBe(200);
    b = await start("shorter prompt");
    await record(b, [
      { rowId: "q1", output: "4", latencyMs: 250, tokens: 9 },
      { rowId: "q2", output: "The capital is Lyon", latencyMs: 640, tokens: 21 },
      { rowId: "q3", output: "Saturn", latencyMs: 300 },
      { rowId: "q4", output: null, error: "The model timed out after 30 s", latencyMs: 30_000 },
    ]);
    await signIn(watched.page, platform.baseUrl, platform.ownerKey);
  });
  // A failed test leaves a picture of where it stopped.
  afterEach(async ({ task }) => {
    if (task.result?.state === "fail") await screenshot(watched.page, `failed ${task.name}`.slice(0, 60));
  });
  const expectNoProblems = () =>
    expect(watched.problems.filter((p) => !/status of (401|412)/.test(p))).toEqual([]);

  it("lists the dataset's experiments from its page, with each score's mean and a chart of them", async () => {
    const page = watched.page;
    await page.goto(`${platform.baseUrl}/projects/evals/datasets/golden`);
    await page.getByRole("link", { name: "Experiments" }).click();
    await page.waitForURL(/\/projects\/evals\/datasets\/golden\/experiments$/);
    const table = page.getByRole("table", { name: "Experiments, newest first" });
    const newest = table.getByRole("row").nth(1);
    await newest.getByRole("link", { name: "shorter prompt" }).waitFor();
    // B: 4 rows, 4 results, 1 error, 0 carried; exact passes on q1 of the three scored.
    expect((await newest.getByRole("cell").allTextContents()).slice(2, 8)).toEqual([
      "2",
      "running",
      "4",
      "4",
      "1",
      "0",
    ]);
    await newest.getByText("0.333", { exact: true }).waitFor();
    const chart = page.getByRole("region", { name: "Score means over time" });
    await chart.locator("svg").first().waitFor();
    // One line per score, across both experiments.
    await expect.poll(() => chart.locator("path.recharts-curve").count()).toBe(2);
    await chart.getByText("similarity").first().waitFor();
    await expectAccessible(page, "the experiments tab");
    await screenshot(page, "experiments-tab");
    expectNoProblems();
  });

  it("explains how to start an experiment when a dataset has none", async () => {
    await watched.page.goto(`${platform.baseUrl}/projects/evals/datasets/hard-cases/experiments`);
    await watched.page.getByText("No experiment has run on this dataset yet.").waitFor();
    await watched.page.getByText(/client\.experiments\.run/).waitFor();
    await watched.page
      .getByText(/svc experiments create --project-slug evals --dataset-slug hard-cases/)
      .waitFor();
    await expectAccessible(watched.page, "an empty experiments tab");
    await screenshot(watched.page, "experiments-none");
    expectNoProblems();
  });

  it("opens an experiment and filters its results by error and by a score below a number", async () => {
    const page = watched.page;
    await page.goto(`${platform.baseUrl}/projects/evals/datasets/golden/experiments`);
    await page.getByRole("link", { name: "shorter prompt" }).click();
    await page.waitForURL(new RegExp(`/projects/evals/experiments/${b}$`));
    await page.getByRole("heading", { name: "shorter prompt" }).waitFor();
    await page.getByRole("region", { name: "Score distribution" }).locator("svg").first().waitFor();
    const results = page.getByRole("table", { name: "Results, in row id order" });
    await expect.poll(() => results.getByRole("row").count()).toBe(5);
    // The output's difference from the expected output is marked.
    await results.locator("del", { hasText: "Paris" }).waitFor();
    await results.locator("ins", { hasText: "Lyon" }).waitFor();
    await expectAccessible(page, "an experiment");
    await screenshot(page, "experiment");

    await page.getByRole("button", { name: "With an error" }).click();
    await page.waitForURL(/errored=true/);
    await expect.poll(() => results.getByRole("row").count()).toBe(2);
    await results.getByText("The model timed out after 30 s").waitFor();
    await page.getByRole("button", { name: "With an error" }).click();
    await page.waitForURL((url) => !url.search.includes("errored"));

    await page.getByLabel("Score", { exact: true }).selectOption("exact");
    await page.getByLabel("below", { exact: true }).fill("1");
    await page.getByRole("button", { name: "Filter", exact: true }).click();
    await page.waitForURL(/score=exact&below=1/);
    await expect.poll(() => results.getByRole("row").count()).toBe(3);
    expect(await results.getByRole("button", { name: /^Select row/ }).allTextContents()).toEqual([
      "q2",
      "q3",
    ]);
    // The filter is the page's address: a reload keeps it.
    await page.reload();
    await expect.poll(() => results.getByRole("row").count()).toBe(3);
    await screenshot(page, "experiment-filtered");
    expectNoProblems();
  });

  it("scores results from the keyboard, as the person who gave the score", async () => {
    const page = watched.page;
    await page.goto(`${platform.baseUrl}/projects/evals/experiments/${b}`);
    const results = page.getByRole("table", { name: "Results, in row id order" });
    await expect.poll(() => results.getByRole("row").count()).toBe(5);
    await page.keyboard.press("j");
    await page.keyboard.press("p");
    await page.getByText("Recorded a pass for row q1").waitFor();
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("f");
    await page.keyboard.press("3");
    await page.getByText("Recorded rating 3 for row q2").waitFor();
    await page.keyboard.press("c");
    const dialog = page.getByRole("dialog", { name: "Comment on row q2" });
    await dialog.getByLabel("Comment").fill("Lyon is not the capital");
    await dialog.getByLabel("With the score").selectOption({ label: "Fail" });
    await dialog.getByRole("button", { name: "Save comment" }).click();
    await dialog.waitFor({ state: "hidden" });
    const q2 = results.getByRole("row").nth(2);
    await q2.getByText("“Lyon is not the capital”").waitFor();
    await q2.getByText("human · You").first().waitFor();
    await expectAccessible(page, "an experiment being scored");
    await screenshot(page, "experiment-scored");

    const scored = await resultsOf(b);
    const byRow = new Map(scored.map((result) => [result.rowId, result.scores]));
    expect(byRow.get("q1")?.pass).toMatchObject({ value: true, source: "human", actor: { kind: "session" } });
    expect(byRow.get("q2")?.pass).toMatchObject({
      value: false,
      source: "human",
      comment: "Lyon is not the capital",
      actor: { kind: "session" },
    });
    expect(byRow.get("q2")?.rating).toMatchObject({ value: 3, source: "human", actor: { kind: "session" } });
    expect(byRow.get("q3")?.pass).toBeUndefined();
    expectNoProblems();
  });

  it("offers no scoring on a finished experiment, and says why", async () => {
    const page = watched.page;
    await page.goto(`${platform.baseUrl}/projects/evals/experiments/${a}`);
    await page.getByText("This experiment is finished: it takes no more scores").waitFor();
    const results = page.getByRole("table", { name: "Results, in row id order" });
    await expect.poll(() => results.getByRole("row").count()).toBe(5);
    await page.keyboard.press("j");
    await page.keyboard.press("p");
    await results.getByRole("row").nth(1).and(page.locator("[aria-current=true]")).waitFor();
    expect((await resultsOf(a)).every((result) => result.scores.pass === undefined)).toBe(true);
    expectNoProblems();
  });

  it("shows a viewer the results without any scoring or copying", async () => {
    const key = await api().post<{ token: string }>("/v1/api-keys", { name: "reader", role: "viewer" });
    expect(key.status).toBe(201);
    const viewer = await openSignedInPage(watched.browser, platform.baseUrl, key.body.token);
    try {
      await viewer.page.goto(`${platform.baseUrl}/projects/evals/experiments/${b}`);
      const results = viewer.page.getByRole("table", { name: "Results, in row id order" });
      await expect.poll(() => results.getByRole("row").count()).toBe(5);
      expect(await viewer.page.getByText(/press p pass/i).count()).toBe(0);
      expect(await viewer.page.getByRole("button", { name: /to a dataset/ }).count()).toBe(0);
      await viewer.page.keyboard.press("j");
      await viewer.page.keyboard.press("j");
      await viewer.page.keyboard.press("j");
      await viewer.page.keyboard.press("p");
      await results.getByRole("row").nth(3).and(viewer.page.locator("[aria-current=true]")).waitFor();
      expect((await resultsOf(b)).find((result) => result.rowId === "q3")?.scores.pass).toBeUndefined();
      expect(viewer.problems).toEqual([]);
    } finally {
      await viewer.context.close();
    }
  });

  it("compares two experiments chosen in the tab, regressions first, with the row-changed mark", async () => {
    const page = watched.page;
    await page.goto(`${platform.baseUrl}/projects/evals/datasets/golden/experiments`);
    await page.getByRole("checkbox", { name: "Compare shorter prompt" }).check();
    await page.getByRole("checkbox", { name: "Compare baseline prompt" }).check();
    await page.getByRole("button", { name: "Compare", exact: true }).click();
    await page.waitForURL(new RegExp(`/projects/evals/experiments/${a}/compare/${b}$`));
    const summary = page.getByRole("region", { name: "Summary" });
    await summary.getByText("regressed").waitFor();
    expect(await summary.getByRole("listitem").allTextContents()).toEqual([
      "3 regressed",
      "0 improved",
      "1 same",
      "0 added (only in B)",
      "0 removed (only in A)",
      "1 row changed in the dataset",
    ]);
    const means = summary.getByRole("table", { name: "Each shared score's mean in A and B" });
    const exact = means.getByRole("row", { name: /^exact/ });
    expect(await exact.getByRole("cell").allTextContents()).toEqual(["1", "0.333", "−0.667"]);

    const rows = page.getByRole("table", { name: "Rows of the two experiments, regressions first" });
    const first = rows.getByRole("row").nth(1);
    await first.getByText("q2", { exact: true }).waitFor();
    await first.getByText("regressed").waitFor();
    const second = rows.getByRole("row").nth(2);
    await second.getByText("q3", { exact: true }).waitFor();
    await second.getByText("row changed in the dataset").waitFor();
    expect(await first.getByText("row changed in the dataset").count()).toBe(0);
    // Both outputs, side by side.
    await second.getByText("Jupiter").first().waitFor();
    await second.locator("ins", { hasText: "Saturn" }).waitFor();
    await expectAccessible(page, "two experiments compared");
    await screenshot(page, "experiments-compared");

    // One change at a time, each choice with its count, kept in the address.
    const filter = page.getByRole("group", { name: "Rows to show" });
    expect(await filter.getByRole("button").allTextContents()).toEqual([
      "All, regressions first (4)",
      "Regressed (3)",
      "Improved (0)",
      "Only in B (0)",
      "Only in A (0)",
      "Same (1)",
    ]);
    await filter.getByRole("button", { name: "Same (1)" }).click();
    await page.waitForURL(/\?change=same$/);
    const same = page.getByRole("table", { name: "Rows of the two experiments that scored the same" });
    await expect.poll(() => same.getByRole("row").count()).toBe(2);
    await same.getByRole("row").nth(1).getByText("same", { exact: true }).waitFor();
    expect(await filter.getByRole("button", { name: "Same (1)" }).getAttribute("aria-pressed")).toBe("true");
    await filter.getByRole("button", { name: "Improved (0)" }).click();
    await page.getByText("No row improved.").waitFor();
    await page.reload();
    await page.getByText("No row improved.").waitFor();
    await filter.getByRole("button", { name: "All, regressions first (4)" }).click();
    await expect.poll(() => rows.getByRole("row").count()).toBe(5);
    expect(new URL(page.url()).search).toBe("");
    await expectAccessible(page, "a comparison's rows filtered");
    expectNoProblems();
  });

  it("copies the rows of a filtered view into another dataset", async () => {
    const page = watched.page;
    await page.goto(`${platform.baseUrl}/projects/evals/experiments/${b}?score=exact&below=1`);
    const results = page.getByRole("table", { name: "Results, in row id order" });
    await expect.poll(() => results.getByRole("row").count()).toBe(3);
    await page.getByRole("button", { name: "Copy these rows to a dataset…" }).click();
    const dialog = page.getByRole("dialog", { name: "Copy these rows to a dataset" });
    await dialog.getByRole("radio", { name: /Every row of this view: the results exact below 1/ }).check();
    await dialog.getByLabel("Copy into").selectOption({ label: "Hard cases" });
    await expectAccessible(page, "the copy dialog");
    await dialog.getByRole("button", { name: "Copy rows" }).click();
    const done = page.getByRole("status").filter({ hasText: "Copied 2 rows into Hard cases as version 1" });
    await done.waitFor();
    await screenshot(page, "experiment-rows-copied");
    await done.getByRole("link", { name: "Open Hard cases" }).click();
    await page.waitForURL(/\/projects\/evals\/datasets\/hard-cases$/);

    const copied = await api().get<{ items: Row[] }>(`${project}/datasets/hard-cases/rows?limit=10`);
    expect(copied.status).toBe(200);
    expect(
      copied.body.items
        .map((row) => row.input)
        .sort((x, y) => JSON.stringify(x).localeCompare(JSON.stringify(y))),
    ).toEqual([{ q: "capital of France?" }, { q: "largest planet of the solar system?" }]);
    expectNoProblems();
  });

  it("says so when a score is refused because the experiment finished meanwhile", async () => {
    const page = watched.page;
    await page.goto(`${platform.baseUrl}/projects/evals/experiments/${b}`);
    const results = page.getByRole("table", { name: "Results, in row id order" });
    await expect.poll(() => results.getByRole("row").count()).toBe(5);
    expect((await api().patch(`${project}/experiments/${b}`, { status: "finished" })).status).toBe(200);
    await page.keyboard.press("j");
    await page.keyboard.press("j");
    await page.keyboard.press("j");
    await page.keyboard.press("p");
    await page
      .getByRole("alert")
      .filter({ hasText: "Not recorded: this experiment is finished and takes no more scores." })
      .waitFor();
    // The page reads the experiment again and stops offering the keys.
    await page.getByText("This experiment is finished: it takes no more scores").waitFor();
    expect((await resultsOf(b)).find((result) => result.rowId === "q3")?.scores.pass).toBeUndefined();
    await screenshot(page, "experiment-finished-meanwhile");
    expect(watched.problems.filter((p) => !/status of (401|409|412)/.test(p))).toEqual([]);
  });
});
