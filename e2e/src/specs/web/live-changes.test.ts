import type { Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { client } from "../../http";
import { startedForSuite } from "../../platform";
import { startEmbedded } from "../../targets";
import {
  chromiumAvailable,
  expectAccessible,
  openSignedInPage,
  replaceText,
  screenshot,
  signIn,
  type WatchedPage,
  watchedPageForSuite,
} from "../../web/harness";

/**
 * The dataset page following its dataset live in Debian's Chromium: another tab's save, or a program's
 * edit through the API, shows in the open page's grid and version without a reload, and a row open in
 * its editor that moved on is said so before the save.
 */
describe.runIf(chromiumAvailable())("live changes in the web application", () => {
  const platform = startedForSuite(() => startEmbedded());
  const watched = watchedPageForSuite(() => platform.baseUrl);
  const api = () => client(platform.baseUrl, platform.ownerKey);
  const dataset = "/v1/projects/live/datasets/answers";
  const at = (query = "") => `${platform.baseUrl}/projects/live/datasets/answers${query}`;
  const gridOf = (page: Page) => page.getByRole("grid", { name: "Dataset rows" });
  const chipOf = (page: Page) => () => page.locator(".version-chip").textContent();
  const currentVersion = async () => (await api().get<{ version: number }>(dataset)).body.version;
  // The same session in a second tab: the case of a page that went stale.
  let other: Page;
  // Another person's browser (its own session and its own unsaved edits).
  let elsewhere: WatchedPage;

  beforeAll(async () => {
    expect((await api().post("/v1/projects", { name: "Live" })).status).toBe(201);
    expect((await api().post("/v1/projects/live/datasets", { name: "Answers" })).status).toBe(201);
    const rows = Array.from({ length: 60 }, (_, i) => ({ id: `m${i}`, input: { q: i }, output: `out ${i}` }));
    expect((await api().post(`${dataset}/rows`, { rows })).status).toBe(201);
    await signIn(watched.page, platform.baseUrl, platform.ownerKey);
    other = await watched.context.newPage();
    elsewhere = await openSignedInPage(watched.browser, platform.baseUrl, platform.ownerKey);
  });
  afterAll(async () => {
    await other?.close();
    await elsewhere?.context.close();
  });
  afterEach(async ({ task }) => {
    if (task.result?.state === "fail") await screenshot(watched.page, `failed ${task.name}`.slice(0, 60));
  });

  it("shows an edit through the API and another tab's save in the grid and the version, without a reload", async () => {
    const page = watched.page;
    await page.goto(at("?sort=asc"));
    await gridOf(page).getByText("m3", { exact: true }).waitFor();
    const before = await currentVersion();
    await expect.poll(chipOf(page)).toMatch(new RegExp(`^Version\\s*${before}$`));
    // The person has scrolled down and picked a row: both stay as the rows change.
    await page.locator(".grid-scroller").evaluate((element) => {
      element.scrollTop = element.scrollHeight / 2;
    });
    await gridOf(page).getByText("m40", { exact: true }).click();
    const scrolled = await page.locator(".grid-scroller").evaluate((element) => element.scrollTop);
    expect(scrolled).toBeGreaterThan(0);

    expect((await api().patch(`${dataset}/rows/m40`, { output: "changed by a program" })).status).toBe(200);
    await gridOf(page)
      .getByText(/changed by a program/)
      .waitFor({ timeout: 3_000 });
    await expect.poll(chipOf(page), { timeout: 3_000 }).toMatch(new RegExp(`^Version\\s*${before + 1}$`));
    expect(await page.locator(".grid-scroller").evaluate((element) => element.scrollTop)).toBe(scrolled);
    expect(new URL(page.url()).searchParams.get("row")).toBe("m40");

    // A row added through the API joins the list, and the view stays where it was.
    const added = await api().post(`${dataset}/rows`, {
      rows: [{ id: "m60", input: { q: 60 }, output: "new" }],
    });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    await expect.poll(chipOf(page), { timeout: 3_000 }).toMatch(new RegExp(`^Version\\s*${before + 2}$`));
    await page.getByText("61 rows", { exact: true }).waitFor({ timeout: 3_000 });
    expect(await page.locator(".grid-scroller").evaluate((element) => element.scrollTop)).toBe(scrolled);

    // The other tab, opened before, saves: this one reads the new version at once.
    await other.goto(at("?sort=asc&row=m41"));
    const panel = other.getByRole("complementary", { name: "Row m41" });
    await panel.waitFor();
    await replaceText(other, "Output", "saved in the other tab", panel);
    await other.keyboard.press("Control+s");
    await other.getByText(`Saved row m41 as version ${before + 3}`).waitFor();
    await expect.poll(chipOf(page), { timeout: 3_000 }).toMatch(new RegExp(`^Version\\s*${before + 3}$`));
    await gridOf(page)
      .getByText(/saved in the other tab/)
      .waitFor({ timeout: 3_000 });
    await expectAccessible(page, "the dataset page after live changes");
    await screenshot(page, "live-grid-and-version");
    expect(watched.problems).toEqual([]);
  });

  it("says in the editor that another tab changed the row being edited, before the save, and not its own saves", async () => {
    const page = watched.page;
    await page.goto(at("?sort=asc&row=m7"));
    const panel = page.getByRole("complementary", { name: "Row m7" });
    await panel.waitFor();
    await replaceText(page, "Expected output", "mine", panel);

    const them = elsewhere.page;
    await them.goto(at("?sort=asc&row=m7"));
    const theirs = them.getByRole("complementary", { name: "Row m7" });
    await theirs.waitFor();
    await replaceText(them, "Output", "theirs", theirs);
    await them.keyboard.press("Control+s");
    const saved = await them.getByText(/^Saved row m7 as version \d+$/).textContent();
    const version = Number(saved?.split(" ").at(-1));

    const notice = panel.getByRole("alert");
    await notice
      .getByText(new RegExp(`^Changed by Session \\w+ at version ${version} — review before saving\\.$`))
      .waitFor({ timeout: 3_000 });
    // The other browser's own save is no news to its own editor.
    expect(await theirs.getByText(/review before saving/).count()).toBe(0);
    await expectAccessible(page, "the editor with a row changed elsewhere");
    await screenshot(page, "live-editor-flag");

    // The save still goes through the conflict view; keeping mine saves, and flags nothing after.
    await page.keyboard.press("Control+s");
    const conflict = page.getByRole("alertdialog", { name: "Someone else changed this row" });
    await conflict.waitFor();
    await conflict.getByRole("button", { name: /Keep mine/ }).click();
    await page.getByText(`Saved row m7 as version ${version + 1}`).waitFor();
    await replaceText(page, "Expected output", "mine again", panel);
    await page.waitForTimeout(500);
    expect(await panel.getByText(/review before saving/).count()).toBe(0);
    expect([...watched.problems, ...elsewhere.problems]).toEqual([]);
  });

  it("over a pinned old version, only says that a newer one exists: the rows stay as they were", async () => {
    const page = watched.page;
    const pinned = await currentVersion();
    await page.goto(at(`?sort=asc&version=${pinned}`));
    await gridOf(page).getByText("m11", { exact: true }).waitFor();
    const banner = page.getByRole("status").filter({ hasText: `You are looking at version ${pinned}` });
    await banner.waitFor();
    expect(await banner.getByRole("link", { name: "What changed since" }).count()).toBe(0);

    expect((await api().patch(`${dataset}/rows/m11`, { output: "after the pin" })).status).toBe(200);
    await banner.getByRole("link", { name: "What changed since" }).waitFor({ timeout: 3_000 });
    expect(await banner.getByRole("link", { name: "What changed since" }).getAttribute("href")).toBe(
      `/projects/live/datasets/answers/diff?from=${pinned}&to=${pinned + 1}`,
    );
    await page.waitForTimeout(500);
    expect(
      await gridOf(page)
        .getByText(/after the pin/)
        .count(),
    ).toBe(0);
    await gridOf(page).getByText("out 11", { exact: true }).waitFor();
    await screenshot(page, "live-pinned-version");
    expect(watched.problems).toEqual([]);
  });

  it("catches up with the versions made while its stream was refused, once it is answered again", async () => {
    const page = watched.page;
    await page.route("**/events*", (route) => route.fulfill({ status: 503, body: "" }));
    await page.goto(at("?sort=asc"));
    await gridOf(page).getByText("m9", { exact: true }).waitFor();
    const before = await currentVersion();
    await expect.poll(chipOf(page)).toMatch(new RegExp(`^Version\\s*${before}$`));

    expect((await api().patch(`${dataset}/rows/m9`, { output: "while away" })).status).toBe(200);
    expect((await api().patch(`${dataset}/rows/m9`, { output: "while away, twice" })).status).toBe(200);
    await page.waitForTimeout(1_500);
    expect(await chipOf(page)()).toMatch(new RegExp(`^Version\\s*${before}$`));

    await page.unroute("**/events*");
    await expect.poll(chipOf(page), { timeout: 6_000 }).toMatch(new RegExp(`^Version\\s*${before + 2}$`));
    await gridOf(page)
      .getByText(/while away, twice/)
      .waitFor({ timeout: 3_000 });
    expect(watched.problems).toEqual([]);
  });
});
