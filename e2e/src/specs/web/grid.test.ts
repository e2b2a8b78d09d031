import type { Page } from "playwright-core";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { client } from "../../http";
import { startedForSuite, waitFor } from "../../platform";
import { startEmbedded } from "../../targets";
import {
  chromiumAvailable,
  expectAccessible,
  openSignedInPage,
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
 * 100,000 rows and shows the rows wherever it is dragged to, and columns a person resizes, hides and
 * pins, laid out again on the next visit.
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
    // A few rows with more columns than fit across the window.
    expect((await api().post(datasets, { name: "Wide" })).status).toBe(201);
    for (const name of ["difficulty", "source", "notes"]) {
      expect((await api().post(`${datasets}/wide/columns`, { name })).status).toBe(201);
    }
    const rows = Array.from({ length: 30 }, (_, i) => ({
      id: `w${i}`,
      input: { question: `question ${i}` },
      output: `answer ${i}`,
      metadata: { source: "prod" },
    }));
    expect((await api().post(`${datasets}/wide/rows`, { rows })).status).toBe(201);
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

      // The keys go on from there, and to the ends (the end's page is read at its offset: on a machine
      // busy with other suites that read takes seconds, which this test is not about).
      await row.click();
      await expect.poll(selectedRow).toBe(expected);
      await page.keyboard.press("j");
      await expect.poll(selectedRow).toBe(await rowIdAt("large", position + 1));
      await grid().focus();
      await page.keyboard.press("End");
      await expect.poll(selectedRow, { timeout: 15_000 }).toBe(await rowIdAt("large", LARGE - 1));
      await page.keyboard.press("k");
      await expect.poll(selectedRow).toBe(await rowIdAt("large", LARGE - 2));
      await page.keyboard.press("Home");
      await expect.poll(selectedRow, { timeout: 15_000 }).toBe(await rowIdAt("large", 0));
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

  describe("a filtered list", () => {
    // The inputs are {"n": 0} to {"n": 99999}; "99" is in the text of these.
    const matching = Array.from({ length: LARGE }, (_, n) => n).filter((n) => String(n).includes("99"));
    const idOf = (n: number) => `b${String(n).padStart(6, "0")}`;

    it("says exactly how many rows match, spans them all, and follows an edit made elsewhere", async () => {
      const page = watched.page;
      await page.goto(at("large", "?q=99"));
      const label = `${matching.length.toLocaleString("en-US")} rows match`;
      await page.getByText(label, { exact: true }).waitFor({ timeout: 15_000 });
      expect(await grid().getAttribute("aria-rowcount")).toBe(String(matching.length + 1));
      // The end of the list is reachable at once: the last match, the oldest, is the bottom row.
      await grid()
        .getByText(idOf(Math.max(...matching)), { exact: true })
        .waitFor();
      await grid().focus();
      await page.keyboard.press("End");
      await page.locator(`[id="row-${idOf(Math.min(...matching))}"]`).waitFor();
      await expectAccessible(page, "a filtered grid with its count");

      // Another curator deletes two matching rows and one that does not match: the count follows live.
      const gone = [idOf(199), idOf(990), idOf(5)];
      const deletion = await api().delete(`${datasets}/large/rows`, {
        selection: { mode: "selected", rowIds: gone },
      });
      expect(deletion.status).toBe(200);
      await page
        .getByText(`${(matching.length - 2).toLocaleString("en-US")} rows match`, { exact: true })
        .waitFor({ timeout: 10_000 });
      expect(await grid().getAttribute("aria-rowcount")).toBe(String(matching.length - 2 + 1));
      expectNoProblems();
    });
  });

  describe("its columns' layout", () => {
    const header = (name: string, page: Page = watched.page) =>
      grid(page).getByRole("columnheader", { name, exact: true });
    const widthOf = async (name: string, page: Page = watched.page) =>
      Math.round((await header(name, page).boundingBox())?.width ?? 0);
    const headerNames = (page: Page = watched.page) => grid(page).getByRole("columnheader").allTextContents();
    /** The checkboxes' header, then the wide dataset's columns in their order. */
    const AS_CREATED = [
      "",
      "Row",
      "Input",
      "Output",
      "Expected output",
      "Metadata",
      "difficulty",
      "source",
      "notes",
    ];
    /** The same after Metadata was hidden, and Row and Output pinned. */
    const LAID_OUT = ["", "Row", "Output", "Input", "Expected output", "difficulty", "source", "notes"];
    const openWide = async (page: Page = watched.page) => {
      await page.goto(at("wide"));
      await grid(page).getByText("w29", { exact: true }).waitFor();
    };

    it("resizes a column by dragging its header's edge, and by keys in the layout menu", async () => {
      const page = watched.page;
      await openWide();
      expect(await widthOf("Input")).toBe(260);
      const box = await header("Input").boundingBox();
      if (!box) throw new Error("no Input header");
      await page.mouse.move(box.x + box.width - 4, box.y + box.height / 2);
      await page.mouse.down();
      await page.mouse.move(box.x + box.width + 96, box.y + box.height / 2, { steps: 5 });
      await page.mouse.up();
      expect(await widthOf("Input")).toBe(360);

      await page.getByText("Layout", { exact: true }).click();
      const width = page.getByRole("spinbutton", { name: "Width of Output, in pixels" });
      await width.focus();
      for (let i = 0; i < 3; i++) await page.keyboard.press("ArrowUp");
      await expect.poll(() => widthOf("Output")).toBe(290);
      await width.fill("420");
      await expect.poll(() => widthOf("Output")).toBe(420);
      await expectAccessible(page, "the layout menu");
      await screenshot(page, "grid-layout-menu");
      await page.keyboard.press("Escape");
      expect(await page.getByRole("spinbutton", { name: "Width of Output, in pixels" }).isVisible()).toBe(
        false,
      );
      expectNoProblems();
    });

    it("hides a column and pins another to the left, where it stays while the grid scrolls sideways", async () => {
      const page = watched.page;
      await openWide();
      expect(await headerNames()).toEqual(AS_CREATED);
      await page.getByText("Layout", { exact: true }).click();
      await page.getByRole("checkbox", { name: "Show Metadata" }).uncheck();
      await page.getByRole("checkbox", { name: "Pin Output to the left" }).check();
      await page.getByRole("checkbox", { name: "Pin Row to the left" }).check();
      await page.keyboard.press("Escape");
      expect(await headerNames()).toEqual(LAID_OUT);
      expect(await grid().getByText('{"source":"prod"}').count()).toBe(0);

      const gridBox = await scroller().boundingBox();
      const before = await header("Output").boundingBox();
      const inputBefore = await header("Input").boundingBox();
      await scroller().evaluate((element) => {
        element.scrollLeft = element.scrollWidth;
      });
      await expect.poll(() => scroller().evaluate((element) => element.scrollLeft)).toBeGreaterThan(200);
      // Pinned: the row id and Output have not moved, in the header nor in the rows; Input went by.
      expect((await header("Output").boundingBox())?.x).toBe(before?.x);
      expect((await header("Row").boundingBox())?.x).toBe((gridBox?.x ?? 0) + 1 + 40);
      expect((await grid().getByText("answer 20", { exact: true }).boundingBox())?.x).toBeGreaterThan(
        before?.x ?? 0,
      );
      expect((await header("Input").boundingBox())?.x).toBeLessThan((inputBefore?.x ?? 0) - 200);
      await grid().getByText("w20", { exact: true }).click();
      await expectAccessible(page, "pinned columns, scrolled sideways");
      await screenshot(page, "grid-pinned-scrolled");
      expectNoProblems();
    });

    it("lays the dataset out again on the next visit, and no other dataset", async () => {
      const page = watched.page;
      await openWide();
      expect(await headerNames()).toEqual(LAID_OUT);
      expect(await widthOf("Input")).toBe(360);
      expect(await widthOf("Output")).toBe(420);
      await page.goto(at("large"));
      await grid()
        .getByText(await rowIdAt("large", 0), { exact: true })
        .waitFor();
      expect(await headerNames()).toEqual(["", "Row", "Input", "Output", "Expected output", "Metadata"]);
      expect(await widthOf("Input")).toBe(260);

      await page.goto(at("wide"));
      await page.getByText("Layout", { exact: true }).click();
      await page.getByRole("button", { name: "Reset layout" }).click();
      await page.keyboard.press("Escape");
      expect(await headerNames()).toEqual(AS_CREATED);
      expect(await widthOf("Input")).toBe(260);
      expectNoProblems();
    });

    it("works as ever in a browser whose storage refuses: the layout holds for the visit", async () => {
      const refused = await openSignedInPage(watched.browser, platform.baseUrl, platform.ownerKey);
      try {
        // Local storage refuses the grid's layout, as a full quota or a blocked site does.
        await refused.context.addInitScript(`{
          const refuse = () => {
            throw new DOMException("The quota has been exceeded.", "QuotaExceededError");
          };
          const { getItem, setItem } = Storage.prototype;
          Storage.prototype.getItem = function (key) {
            return key.startsWith("svc:grid-layout") ? refuse() : getItem.call(this, key);
          };
          Storage.prototype.setItem = function (key, value) {
            return key.startsWith("svc:grid-layout") ? refuse() : setItem.call(this, key, value);
          };
        }`);
        const page = refused.page;
        await openWide(page);
        await page.getByText("Layout", { exact: true }).click();
        await page.getByRole("checkbox", { name: "Show Input" }).uncheck();
        await page.keyboard.press("Escape");
        expect(await headerNames(page)).toEqual(AS_CREATED.filter((name) => name !== "Input"));
        await grid(page).getByText("w25", { exact: true }).click();
        await page.getByRole("complementary", { name: "Row w25" }).waitFor();
        expect(refused.problems).toEqual([]);
      } finally {
        await refused.context.close();
      }
    });
  });
});
