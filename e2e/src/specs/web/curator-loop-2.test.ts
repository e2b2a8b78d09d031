import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { Route } from "playwright-core";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { kill, scratchDirsForSuite, spawnEmbedded, waitRunning } from "../../embedded";
import { client } from "../../http";
import { freePort, startedForSuite } from "../../platform";
import { startEmbedded } from "../../targets";
import {
  chromiumAvailable,
  expectAccessible,
  screenshot,
  signIn,
  watchedPageForSuite,
} from "../../web/harness";

interface Page_<T> {
  items: T[];
  hasMore: boolean;
  nextCursor: string | null;
}

/**
 * The curator's loop, second round, in Debian's Chromium against the embedded platform: files in and
 * out that say what they did, and pages that a keyboard, a screen reader and a phone can use.
 */
describe.runIf(chromiumAvailable())("the curator's loop in the web application, second round", () => {
  const platform = startedForSuite(() => startEmbedded());
  const watched = watchedPageForSuite(() => platform.baseUrl);
  const api = () => client(platform.baseUrl, platform.ownerKey);
  const project = "/v1/projects/loop2";
  const at = (dataset: string, path = "") => `${platform.baseUrl}/projects/loop2/datasets/${dataset}${path}`;
  const dialog = () => watched.page.getByRole("dialog", { name: "Import a file" });

  beforeAll(async () => {
    expect((await api().post("/v1/projects", { name: "Loop2" })).status).toBe(201);
    await signIn(watched.page, platform.baseUrl, platform.ownerKey);
  });
  afterEach(async ({ task }) => {
    await watched.page.unrouteAll({ behavior: "wait" });
    if (task.result?.state === "fail") await screenshot(watched.page, `failed ${task.name}`.slice(0, 60));
  });
  /** Refusals the tests make on purpose are not problems of the page. */
  const expectNoProblems = () =>
    expect(watched.problems.filter((p) => !/status of (401|412|503)/.test(p))).toEqual([]);

  const newDataset = async (name: string, rows: { id: string; input: unknown; output?: unknown }[] = []) => {
    expect((await api().post(`${project}/datasets`, { name })).status).toBe(201);
    const slug = name.toLowerCase();
    if (rows.length > 0) {
      expect((await api().post(`${project}/datasets/${slug}/rows`, { rows })).status).toBe(201);
    }
    return slug;
  };
  const countRows = async (slug: string) => {
    let count = 0;
    let cursor: string | null = null;
    do {
      const query: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : "";
      const page = await api().get<Page_<unknown>>(`${project}/datasets/${slug}/rows?limit=200${query}`);
      count += page.body.items.length;
      cursor = page.body.hasMore ? page.body.nextCursor : null;
    } while (cursor);
    return count;
  };
  const versionOf = async (slug: string) =>
    (await api().get<{ version: number }>(`${project}/datasets/${slug}`)).body.version;
  const csvOf = (rows: number) =>
    ["id,input,output", ...Array.from({ length: rows }, (_, i) => `c${i},question ${i},answer ${i}`)].join(
      "\n",
    );
  const chooseFile = async (name: string, mimeType: string, text: string | Buffer) => {
    await dialog()
      .locator('input[type="file"]')
      .setInputFiles({ name, mimeType, buffer: Buffer.isBuffer(text) ? text : Buffer.from(text) });
  };

  describe("an import whose progress check is refused", () => {
    it("keeps checking through 503s, honouring Retry-After, and reports the import's success", async () => {
      const slug = await newDataset("Busy");
      const checks: { at: number; status: number }[] = [];
      let refusals = 5;
      await watched.page.route(
        /\/v1\/projects\/loop2\/datasets\/busy\/imports\/[a-z0-9]+$/,
        async (route) => {
          if (refusals > 0) {
            refusals--;
            checks.push({ at: Date.now(), status: 503 });
            await route.fulfill({
              status: 503,
              headers: { "content-type": "application/json", "retry-after": "1" },
              body: JSON.stringify({
                error: "No service answered",
                code: "service_unavailable",
                requestId: "r",
              }),
            });
            return;
          }
          checks.push({ at: Date.now(), status: 200 });
          await route.continue();
        },
      );
      await watched.page.goto(at(slug));
      await watched.page.getByRole("button", { name: "Import", exact: true }).first().click();
      await chooseFile("busy.csv", "text/csv", csvOf(300));
      await dialog().getByRole("table", { name: "First rows of the file" }).waitFor();
      await dialog().getByRole("button", { name: "Import rows" }).click();
      // While unanswered, the dialog says the import goes on.
      await dialog()
        .getByText(/The platform is busy and did not say how the import is going/)
        .waitFor();
      await expectAccessible(watched.page, "an import whose progress check is refused");
      await screenshot(watched.page, "import-check-refused");
      await dialog().getByText("Imported 300 rows as version 1.").waitFor({ timeout: 30_000 });
      expect(
        await dialog()
          .getByText(/busy or restarting/)
          .count(),
      ).toBe(0);
      expect(checks.filter((check) => check.status === 503)).toHaveLength(5);
      // Retry-After: 1 was waited for between the refusals the client retried by itself.
      const gaps = checks.slice(1).map((check, i) => check.at - (checks[i]?.at ?? 0));
      expect(gaps.slice(0, 3).every((gap) => gap >= 900)).toBe(true);
      await screenshot(watched.page, "import-check-refused-done");
      expect(await countRows(slug)).toBe(300);
      expectNoProblems();
    });

    it("sends one Idempotency-Key for a file and its settings, so trying again is the same import", async () => {
      const slug = await newDataset("Twice");
      const keys: string[] = [];
      const answerBusy = async (route: Route) => {
        keys.push((await route.request().headerValue("idempotency-key")) ?? "");
        // The platform takes the import, but its answer is lost: the browser sees a 503.
        await route.fetch();
        await route.fulfill({
          status: 503,
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ error: "No service answered", code: "service_unavailable", requestId: "r" }),
        });
      };
      const imports = /\/v1\/projects\/loop2\/datasets\/twice\/imports\?/;
      await watched.page.route(imports, answerBusy);
      await watched.page.goto(at(slug));
      await watched.page.getByRole("button", { name: "Import", exact: true }).first().click();
      await chooseFile("twice.csv", "text/csv", csvOf(40));
      await dialog().getByRole("button", { name: "Import rows" }).click();
      await dialog()
        .getByText(/busy or restarting/)
        .waitFor();
      await expect.poll(() => countRows(slug)).toBe(40);

      // Trying again sends the same key: the platform answers with the first import.
      await watched.page.unroute(imports, answerBusy);
      await watched.page.route(imports, async (route) => {
        keys.push((await route.request().headerValue("idempotency-key")) ?? "");
        await route.continue();
      });
      await dialog().getByRole("button", { name: "Try again" }).click();
      await dialog().getByText("Imported 40 rows as version 1.").waitFor();
      expect(keys).toHaveLength(2);
      expect(keys[1]).toBe(keys[0]);
      expect(await countRows(slug)).toBe(40);
      expect(await versionOf(slug)).toBe(1);

      // Choosing the file again after the import is known to have succeeded is a new import.
      await dialog().getByRole("button", { name: "Import another file" }).click();
      await chooseFile("twice.csv", "text/csv", csvOf(40).replaceAll(/^c/gm, "d"));
      await dialog().getByRole("button", { name: "Import rows" }).click();
      await dialog().getByText("Imported 40 rows as version 2.").waitFor();
      expect(keys).toHaveLength(3);
      expect(keys[2]).not.toBe(keys[0]);
      expect(await countRows(slug)).toBe(80);
      expectNoProblems();
    });
  });

  describe("files the import cannot take", () => {
    const png = Buffer.from(
      "89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000000000200015e2d2f8d0000000049454e44ae426082",
      "hex",
    );
    const cases: [string, string, string | Buffer, string][] = [
      ["empty.csv", "text/csv", "", "This file is empty: there is nothing to import."],
      [
        "header.csv",
        "text/csv",
        "id,input,output\n",
        "This file has a header row and no rows below it: there is nothing to import.",
      ],
      [
        "twice.csv",
        "text/csv",
        "id,input,output,input\nr1,a,b,c\n",
        "The header row names “input” twice (fields 2 and 4): give each field its own name in the first row.",
      ],
      [
        "picture.csv",
        "text/csv",
        png,
        "This file is not text: it holds binary data (a spreadsheet or an archive, perhaps). Save it as CSV, JSONL or JSON, or choose a Parquet file.",
      ],
    ];

    it("says in the preview why each cannot be imported, and offers no import", async () => {
      const slug = await newDataset("Refused", [{ id: "x1", input: "kept" }]);
      await watched.page.goto(at(slug));
      await watched.page.getByRole("button", { name: "Import", exact: true }).first().click();
      for (const [name, type, content, message] of cases) {
        await chooseFile(name, type, content);
        const alert = dialog().getByRole("alert");
        await alert.waitFor();
        expect(await alert.textContent(), name).toBe(message);
        expect(
          await dialog()
            .getByText(/too large to preview/)
            .count(),
          name,
        ).toBe(0);
        expect(await dialog().getByRole("button", { name: "Import rows" }).isDisabled(), name).toBe(true);
        if (name === "picture.csv") {
          await expectAccessible(watched.page, "a file that is not text");
          await screenshot(watched.page, "import-binary-file");
        }
        await dialog().getByRole("button", { name: "Choose another file" }).click();
      }
      expect(await versionOf(slug)).toBe(1);
      expectNoProblems();
    });

    it("makes no version of a CSV that is a header alone", async () => {
      const slug = await newDataset("Header");
      const base = `${project}/datasets/${slug}`;
      const started = await api().post<{ importId: string }>(`${base}/imports`, "id,input,notes\n", {
        "content-type": "text/csv",
      });
      expect(started.status).toBe(202);
      let job: { state: string; versionId?: string | null; rowsInserted?: number } = { state: "receiving" };
      await expect
        .poll(async () => {
          job = (await api().get<typeof job>(`${base}/imports/${started.body.importId}`)).body;
          return job.state;
        })
        .toBe("succeeded");
      expect(job).toMatchObject({ versionId: null, rowsInserted: 0 });
      expect(await versionOf(slug)).toBe(0);
      const columns = await api().get<{ columns: { name: string }[] }>(`${base}/columns`);
      expect(columns.body.columns.map((column) => column.name)).not.toContain("notes");
    });
  });

  describe("the way around", () => {
    it("names Traces for the current project in the top navigation", async () => {
      await newDataset("Nav", [{ id: "n1", input: "q" }]);
      const main = watched.page.getByRole("navigation", { name: "Main" });
      await watched.page.goto(`${platform.baseUrl}/projects`);
      await main.getByRole("link", { name: "Projects" }).waitFor();
      expect(await main.getByRole("link", { name: "Traces" }).count()).toBe(0);

      await watched.page.goto(at("nav"));
      await watched.page
        .getByRole("grid", { name: "Dataset rows" })
        .getByText("n1", { exact: true })
        .waitFor();
      const traces = main.getByRole("link", { name: "Traces" });
      const projects = main.getByRole("link", { name: "Projects" });
      // The address changes before the navigation draws its marks: each is waited for, not read once.
      await expect.poll(() => traces.getAttribute("href")).toBe("/projects/loop2/traces");
      await expect.poll(() => projects.getAttribute("aria-current")).toBe("page");
      await traces.click();
      await watched.page.waitForURL(/\/projects\/loop2\/traces$/);
      await expect.poll(() => traces.getAttribute("aria-current")).toBe("page");
      await expect.poll(() => projects.getAttribute("aria-current")).toBe(null);
      await expectAccessible(watched.page, "the traces of a project, from the top navigation");
      await screenshot(watched.page, "nav-traces");
      expectNoProblems();
    });

    it("offers an import in an empty dataset's empty state", async () => {
      const slug = await newDataset("Blank");
      await watched.page.goto(at(slug));
      const empty = watched.page.getByText("This dataset has no rows yet.").locator("..");
      await empty.getByRole("button", { name: "Add the first row" }).waitFor();
      await empty.getByRole("button", { name: "Import a file" }).click();
      await dialog().getByText("Drop a CSV, JSONL, JSON or Parquet file here", { exact: false }).waitFor();
      await chooseFile("first.csv", "text/csv", csvOf(3));
      await dialog().getByRole("button", { name: "Import rows" }).click();
      await dialog().getByText("Imported 3 rows as version 1.").waitFor();
      await dialog().getByRole("button", { name: "Close" }).click();
      await watched.page
        .getByRole("grid", { name: "Dataset rows" })
        .getByText("c2", { exact: true })
        .waitFor();
      expectNoProblems();
    });

    it("counts what deleting a dataset deletes", async () => {
      const slug = await newDataset("Doomed", [{ id: "d1", input: "q" }]);
      expect((await api().post(`${project}/datasets/${slug}/columns`, { name: "label" })).status).toBe(201);
      expect((await api().patch(`${project}/datasets/${slug}/rows/d1`, { output: "a" })).status).toBe(200);
      await watched.page.goto(`${platform.baseUrl}/projects/loop2`);
      await watched.page.getByRole("button", { name: "Delete Doomed" }).click();
      const confirm = watched.page.getByRole("dialog", { name: "Delete Doomed?" });
      await confirm
        .getByText(
          "Its 1 row, its 5 columns and 2 versions of history will be deleted. This cannot be undone.",
        )
        .waitFor();
      await expectAccessible(watched.page, "the question before deleting a dataset");
      await screenshot(watched.page, "delete-dataset-counts");
      await confirm.getByRole("button", { name: "Cancel" }).click();
      expectNoProblems();
    });

    it("reads the update choice of an import plainly", async () => {
      const slug = await newDataset("Plain");
      await watched.page.goto(at(slug));
      await watched.page.getByRole("button", { name: "Import", exact: true }).first().click();
      await chooseFile("plain.csv", "text/csv", csvOf(2));
      await dialog()
        .getByRole("radio", {
          name: "Update existing rows, matched by row id (only cells that differ change)",
        })
        .waitFor();
      expect(
        await dialog()
          .getByText(/their ids name/)
          .count(),
      ).toBe(0);
      await dialog().getByRole("button", { name: "Choose another file" }).click();
      await dialog().getByRole("button", { name: "Close" }).click();
    });

    it("gives a row the whole screen of a phone, as a sheet that Close row leaves", async () => {
      const slug = await newDataset("Phone", [
        { id: "p1", input: { q: "a question long enough to need the width" }, output: "an answer" },
      ]);
      const phone = await watched.browser.newContext({ viewport: { width: 390, height: 844 } });
      try {
        const page = await phone.newPage();
        await signIn(page, platform.baseUrl, platform.ownerKey);
        await page.goto(at(slug, "?row=p1"));
        const panel = page.getByRole("complementary", { name: "Row p1" });
        await panel.waitFor();
        const box = await panel.boundingBox();
        expect(box?.width).toBe(390);
        expect(box?.height).toBeGreaterThanOrEqual(800);
        await expectAccessible(page, "a row on a phone");
        await screenshot(page, "phone-row-sheet");
        await panel.getByRole("button", { name: "Close row" }).click();
        await page.getByRole("grid", { name: "Dataset rows" }).getByText("p1", { exact: true }).waitFor();
        expect(await panel.count()).toBe(0);
      } finally {
        await phone.close();
      }
    });
  });

  describe("signing in", () => {
    const scratch = scratchDirsForSuite();
    const signInText = async (baseUrl: string) => {
      const fresh = await watched.browser.newContext();
      try {
        const page = await fresh.newPage();
        await page.goto(`${baseUrl}/sign-in`);
        await page.getByLabel("API key").waitFor();
        await expectAccessible(page, "the sign-in page");
        await screenshot(page, "sign-in-data-folder");
        return (await page.locator("p.muted", { hasText: "Paste an API key" }).textContent()) ?? "";
      } finally {
        await fresh.close();
      }
    };

    it("names the data folder the platform was started with, not the default one", async () => {
      const dataDir = scratch("sign-in");
      const proc = spawnEmbedded({
        SVC_DATA_DIR: dataDir,
        PORT: String(await freePort()),
        LOG_LEVEL: "warn",
      });
      try {
        const text = await signInText(await waitRunning(proc));
        expect(text).toContain(`The platform's first key is in ${join(dataDir, "bootstrap-key")};`);
        expect(text).not.toContain(".svc-data");
      } finally {
        await kill(proc);
      }
    });

    it("names no key file when the platform's first key came from its environment", async () => {
      const text = await signInText(platform.baseUrl);
      expect(text).not.toContain("bootstrap-key");
      expect(text).toContain("An owner or admin of your organisation can make you a key.");
    });
  });

  describe("a selection and the filter", () => {
    it("clears the selection when the filter changes, and names the rows a delete reaches", async () => {
      const rows = ["apple", "apple", "apple", "pear", "pear"].map((fruit, i) => ({
        id: `f${i}`,
        input: `${fruit} ${i}`,
      }));
      const slug = await newDataset("Fruit", rows);
      const grid = watched.page.getByRole("grid", { name: "Dataset rows" });
      const bar = watched.page.getByRole("region", { name: "Selected rows" });
      await watched.page.goto(at(slug));
      await grid.getByText("f4", { exact: true }).waitFor();
      await grid.getByRole("checkbox", { name: "Select row f0" }).check();
      await grid.getByRole("checkbox", { name: "Select row f1" }).check();
      await bar.getByText("2 selected").waitFor();

      // The filter hides f0 and f1: they are no longer selected, so no change can reach them unseen.
      await watched.page.getByLabel("Search rows").fill("pear");
      await expect.poll(() => grid.getByText("f0", { exact: true }).count()).toBe(0);
      await expect.poll(() => bar.count()).toBe(0);
      // The order of the list is not a filter: it keeps what is checked.
      await grid.getByRole("checkbox", { name: "Select row f3" }).check();
      await grid.getByRole("checkbox", { name: "Select row f4" }).check();
      await watched.page.getByRole("button", { name: /^Sort by creation time/ }).click();
      await bar.getByText("2 selected").waitFor();

      await bar.getByRole("button", { name: "Delete 2 rows" }).click();
      const confirm = watched.page.getByRole("dialog", { name: "Delete 2 rows?" });
      await confirm.getByText(/^Rows f[34] and f[34]\.$/).waitFor();
      await expectAccessible(watched.page, "the question before deleting two rows");
      await screenshot(watched.page, "delete-rows-named");
      await confirm.getByRole("button", { name: "Delete 2 rows" }).click();
      await watched.page.getByText("Deleted 2 rows as version 2").waitFor();
      const left = await api().get<Page_<{ rowId: string }>>(
        `${project}/datasets/${slug}/rows?sortDirection=asc`,
      );
      expect(left.body.items.map((row) => row.rowId)).toEqual(["f0", "f1", "f2"]);
      expectNoProblems();
    });
  });

  describe("with a keyboard and a screen reader", () => {
    const rows = Array.from({ length: 30 }, (_, i) => ({ id: `k${i}`, input: `question ${i}` }));
    const grid = () => watched.page.getByRole("grid", { name: "Dataset rows" });
    /** What has focus, as a screen reader names it: its aria-label, its label, or its role. */
    const focused = () =>
      watched.page.evaluate<string>(`(() => {
        const element = document.activeElement;
        const label = element?.labels?.[0]?.textContent?.trim();
        return element?.getAttribute("aria-label") ?? label ?? element?.getAttribute("role") ?? element?.tagName ?? "";
      })()`);

    it("points at no row that is not on the page", async () => {
      const slug = await newDataset("Keys", rows);
      await watched.page.goto(at(slug, "?row=nowhere"));
      await grid().getByText("k29", { exact: true }).waitFor();
      expect(await grid().getAttribute("aria-activedescendant")).toBe(null);
      await expectAccessible(watched.page, "a link to a row the list does not have");
      await watched.page.goto(at(slug, "?row=k28"));
      await expect.poll(() => grid().getAttribute("aria-activedescendant")).toBe("row-k28");
      await expectAccessible(watched.page, "a selected row");
      expectNoProblems();
    });

    it("is one Tab stop for the grid, and checks rows with Space and Ctrl+A", async () => {
      await watched.page.goto(at("keys"));
      await grid().getByText("k29", { exact: true }).waitFor();
      await watched.page.getByLabel("Search rows").focus();
      const stops: string[] = [];
      for (let i = 0; i < 12; i++) {
        await watched.page.keyboard.press("Tab");
        stops.push(await focused());
      }
      expect(stops.filter((stop) => stop.startsWith("Select row"))).toEqual([]);
      expect(stops.filter((stop) => stop === "Dataset rows")).toHaveLength(1);
      await grid().focus();
      await watched.page.keyboard.press("j");
      await watched.page.keyboard.press(" ");
      const bar = watched.page.getByRole("region", { name: "Selected rows" });
      await bar.getByText("1 selected").waitFor();
      await watched.page.keyboard.press("Control+a");
      await bar.getByText("30 selected").waitFor();
      await expectAccessible(watched.page, "the grid with every row checked");
      await bar.getByRole("button", { name: "Clear selection" }).click();
      expectNoProblems();
    });

    it("scrolls the import preview by keyboard", async () => {
      await watched.page.goto(at("keys"));
      await watched.page.getByRole("button", { name: "Import", exact: true }).first().click();
      const fields = Array.from({ length: 14 }, (_, i) => `a_rather_long_field_name_${i}`);
      const wide = [fields.join(","), fields.map((_, i) => `a value long enough to be wide ${i}`).join(",")];
      await chooseFile("wide.csv", "text/csv", wide.join("\n"));
      const region = dialog().getByRole("region", { name: "First rows of the file, scrollable" });
      await region.waitFor();
      await region.focus();
      await watched.page.keyboard.press("ArrowRight");
      await watched.page.keyboard.press("ArrowRight");
      await expect.poll(() => region.evaluate((element) => element.scrollLeft)).toBeGreaterThan(0);
      await expectAccessible(watched.page, "a wide file's preview");
      await screenshot(watched.page, "import-preview-keyboard");
      await dialog().getByRole("button", { name: "Choose another file" }).click();
      await dialog().getByRole("button", { name: "Close" }).click();
    });

    it("keeps focus on a column's Rename after renaming it, and says up and down for ↑ and ↓", async () => {
      const slug = await newDataset("Cols", [{ id: "c1", input: "q" }]);
      expect((await api().post(`${project}/datasets/${slug}/columns`, { name: "label" })).status).toBe(201);
      await watched.page.goto(at(slug));
      await watched.page.getByRole("button", { name: "Columns" }).click();
      const columns = watched.page.getByRole("dialog", { name: "Columns" });
      await columns.getByRole("button", { name: "Move label up" }).waitFor();
      await columns.getByRole("button", { name: "Move Input down" }).waitFor();
      expect(await columns.getByRole("button", { name: /left|right/ }).count()).toBe(0);
      await columns.getByRole("button", { name: "Rename label" }).click();
      await expect.poll(focused).toBe("New name of label");
      await watched.page.keyboard.press("Control+a");
      await watched.page.keyboard.type("topic");
      await watched.page.keyboard.press("Enter");
      await columns.getByRole("button", { name: "Rename topic" }).waitFor();
      await expect.poll(focused).toBe("Rename topic");
      // Cancelling goes back to the same place.
      await watched.page.keyboard.press("Enter");
      await columns.getByRole("button", { name: "Cancel" }).click();
      await expect.poll(focused).toBe("Rename topic");
      await expectAccessible(watched.page, "the columns after a rename");
      await screenshot(watched.page, "columns-after-rename");
      expectNoProblems();
    });
  });

  describe("an export imported back", () => {
    it("changes nothing when a JSONL export is imported back as an update", async () => {
      const slug = await newDataset("Round");
      const base = `${project}/datasets/${slug}`;
      const label = await api().post<{ identifier: string }>(`${base}/columns`, { name: "label" });
      const score = await api().post<{ identifier: string }>(`${base}/columns`, { name: "score" });
      const [l, s] = [label.body.identifier, score.body.identifier];
      const rows = [
        { id: "j1", input: { q: "2+2" }, output: "4", custom: { [l]: "math", [s]: 1 } },
        { id: "j2", input: "12", output: "", metadata: { n: null }, custom: { [l]: "", [s]: "0.50" } },
        { id: "j3", input: "line\nbreak", output: null, custom: {} },
      ];
      expect((await api().post(`${base}/rows`, { rows })).status).toBe(201);
      await watched.page.goto(at(slug));
      await watched.page.getByText("Export", { exact: true }).click();
      const [download] = await Promise.all([
        watched.page.waitForEvent("download"),
        watched.page.getByRole("link", { name: "JSONL", exact: true }).click(),
      ]);
      const file = await readFile((await download.path()) ?? "");
      expect(file.toString("utf8")).toContain('"custom":{');

      await watched.page.getByRole("button", { name: "Import", exact: true }).first().click();
      await chooseFile(download.suggestedFilename(), "application/x-ndjson", file);
      await dialog().getByRole("table", { name: "First rows of the file" }).waitFor();
      // The custom cells go back to their columns, not to a new column named "custom".
      expect(await dialog().getByLabel("custom", { exact: true }).inputValue()).toBe("cells");
      await dialog().getByText("Update existing rows", { exact: false }).click();
      await expectAccessible(watched.page, "an export's mapping back");
      await screenshot(watched.page, "import-jsonl-export-back");
      await dialog().getByRole("button", { name: "Update rows" }).click();
      await dialog()
        .getByText(/^Nothing changed/)
        .waitFor();
      expect(await versionOf(slug)).toBe(1);
      const columns = await api().get<{ columns: { name: string }[] }>(`${base}/columns`);
      expect(columns.body.columns.map((column) => column.name)).toEqual([
        "Input",
        "Output",
        "Expected output",
        "Metadata",
        "label",
        "score",
      ]);
      expectNoProblems();
    });
  });
});
