import type { Page } from "playwright-core";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { client } from "../../http";
import { startedForSuite, waitFor } from "../../platform";
import { startEmbedded } from "../../targets";
import {
  chromiumAvailable,
  expectAccessible,
  screenshot,
  signIn,
  watchedPageForSuite,
} from "../../web/harness";

interface Import {
  importId: string;
  state: string;
}
interface RowPage {
  items: { rowId: string }[];
}

const LARGE = 100_000;
const ROW_HEIGHT = 36;

/**
 * The dataset grid in Debian's Chromium against the embedded platform: a scrollbar that spans all of
 * 100,000 rows and shows the rows wherever it is dragged to.
 */
describe.runIf(chromiumAvailable())("the dataset grid in the web application", () => {
  const platform = startedForSuite(() => startEmbedded());
  const watched = watchedPageForSuite(() => platform.baseUrl);
  const api = () => client(platform.baseUrl, platform.ownerKey);
  const datasets = "/v1/projects/grid/datasets";
  const at = (dataset: string, query = "") => `${platform.baseUrl}/projects/grid/datasets/${dataset}${query}`;
  const grid = (page: Page = watched.page) => page.getByRole("grid", { name: "Dataset rows" });
  const scroller = (page: Page = watched.page) => page.locator(".grid-scroller");
  /** The id of the row at a position of the list, as the platform gives it. */
  const rowIdAt = async (dataset: string, position: number) => {
    const page = await api().get<RowPage>(`${datasets}/${dataset}/rows?offset=${position}&limit=1`);
    return page.body.items[0]?.rowId ?? "";
  };
  const selectedRow = () => new URL(watched.page.url()).searchParams.get("row");

  beforeAll(async () => {
    expect((await api().post("/v1/projects", { name: "Grid" })).status).toBe(201);
    // 100,000 rows in one import: the quickest way in.
    expect((await api().post(datasets, { name: "Large" })).status).toBe(201);
    const file = Array.from({ length: LARGE }, (_, i) =>
      JSON.stringify({ id: `b${String(i).padStart(6, "0")}`, input: { n: i } }),
    ).join("\n");
    const upload = await fetch(`${platform.baseUrl}${datasets}/large/imports`, {
      method: "POST",
      headers: { authorization: `Bearer ${platform.ownerKey}`, "content-type": "application/x-ndjson" },
      body: file,
    });
    expect(upload.status).toBe(202);
    const { importId } = (await upload.json()) as Import;
    await waitFor(
      "the import of 100,000 rows",
      async () => {
        const state = (await api().get<Import>(`${datasets}/large/imports/${importId}`)).body.state;
        if (state === "failed") throw new Error("the import failed");
        return state === "succeeded" ? state : undefined;
      },
      120_000,
    );
    await signIn(watched.page, platform.baseUrl, platform.ownerKey);
  }, 180_000);
  afterEach(async ({ task }) => {
    if (task.result?.state === "fail") await screenshot(watched.page, `failed ${task.name}`.slice(0, 60));
  });
  const expectNoProblems = () => expect(watched.problems).toEqual([]);

  describe("over 100,000 rows", () => {
    it("spans every row with its scrollbar and shows the rows where it is dragged to within a second", async () => {
      const page = watched.page;
      await page.goto(at("large"));
      await page.getByText("100,000 rows", { exact: true }).waitFor();
      await grid()
        .getByText(await rowIdAt("large", 0), { exact: true })
        .waitFor();
      expect(await grid().getAttribute("aria-rowcount")).toBe(String(LARGE + 1));
      const height = await scroller().evaluate((element) => element.scrollHeight);
      expect(height).toBeGreaterThanOrEqual(LARGE * ROW_HEIGHT);

      // The scrollbar dragged half-way down its track, as a hand does it: over a few frames, passing
      // over the pages between. (Headless Chromium draws no scrollbar to grab.)
      await scroller().evaluate(async (element) => {
        const end = (element.scrollHeight - element.clientHeight) / 2;
        for (let step = 1; step <= 8; step++) {
          element.scrollTop = (end * step) / 8;
          await new Promise((resolve) => setTimeout(resolve, 16));
        }
      });
      const dragged = Date.now();
      const scrollTop = await scroller().evaluate((element) => element.scrollTop);
      expect(scrollTop).toBeGreaterThan(0.3 * height);
      expect(scrollTop).toBeLessThan(0.7 * height);
      // The row now at the top of the view is the one at that position in the list.
      const position = Math.ceil(scrollTop / ROW_HEIGHT);
      const expected = await rowIdAt("large", position);
      const row = page.locator(`[id="row-${expected}"]`);
      await row.waitFor();
      const shownAfter = Date.now() - dragged;
      console.log(`rows at position ${position.toLocaleString()} shown ${shownAfter} ms after the drag`);
      expect(shownAfter).toBeLessThan(1_500);
      expect(await row.getAttribute("aria-rowindex")).toBe(String(position + 2));
      await screenshot(page, "grid-middle-of-100000");

      // The keys go on from there, and to the ends.
      await row.click();
      await expect.poll(selectedRow).toBe(expected);
      await page.keyboard.press("j");
      await expect.poll(selectedRow).toBe(await rowIdAt("large", position + 1));
      await page.keyboard.press("End");
      await expect.poll(selectedRow, { timeout: 5_000 }).toBe(await rowIdAt("large", LARGE - 1));
      await page.keyboard.press("k");
      await expect.poll(selectedRow).toBe(await rowIdAt("large", LARGE - 2));
      await page.keyboard.press("Home");
      await expect.poll(selectedRow, { timeout: 5_000 }).toBe(await rowIdAt("large", 0));
      expect(await scroller().evaluate((element) => element.scrollTop)).toBe(0);
      await expectAccessible(page, "the grid over 100,000 rows");
      expectNoProblems();
    });

    it("goes to a row by its number in the same scroll area, in the address, and back to the top", async () => {
      const page = watched.page;
      await page.goto(at("large"));
      await grid()
        .getByText(await rowIdAt("large", 0), { exact: true })
        .waitFor();
      await page.getByRole("textbox", { name: "Go to row number" }).fill("70,000");
      await page.keyboard.press("Enter");
      const expected = await rowIdAt("large", 69_999);
      await page.locator(`[id="row-${expected}"]`).waitFor();
      expect(await scroller().evaluate((element) => Math.round(element.scrollTop / 36))).toBe(69_999);
      expect(new URL(page.url()).searchParams.get("from")).toBe("70000");
      await page.getByText("100,000 rows", { exact: true }).waitFor();
      // The address opens at the same place.
      await page.reload();
      await page.locator(`[id="row-${expected}"]`).waitFor();
      await expectAccessible(page, "the grid after a jump");
      await grid().focus();
      await page.keyboard.press("Home");
      await grid()
        .getByText(await rowIdAt("large", 0), { exact: true })
        .waitFor();
      expectNoProblems();
    });
  });
});
