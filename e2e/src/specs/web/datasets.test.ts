import { readFile } from "node:fs/promises";
import { parse } from "csv-parse/sync";
import { parquetReadObjects } from "hyparquet";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { client } from "../../http";
import { startedForSuite } from "../../platform";
import { startEmbedded } from "../../targets";
import {
  chromiumAvailable,
  expectAccessible,
  replaceText,
  screenshot,
  signIn,
  storedDrafts,
  watchedPageForSuite,
} from "../../web/harness";

interface Page_<T> {
  items: T[];
}
interface Version {
  version: number;
  operation: string;
  actor: { kind: string; id: string };
}

/**
 * A curator's dataset work in the web application, in Debian's Chromium against the embedded
 * platform: time travel (a version read-only, the diff of two versions, a restore, a row's own
 * history with "restore this cell"), and files in and out.
 */
describe.runIf(chromiumAvailable())("the web application's history and files of a dataset", () => {
  const platform = startedForSuite(() => startEmbedded());
  const watched = watchedPageForSuite(() => platform.baseUrl);
  const base = "/v1/projects/history/datasets/answers";
  const api = () => client(platform.baseUrl, platform.ownerKey);
  const at = (path: string) => `${platform.baseUrl}/projects/history/datasets/answers${path}`;

  beforeAll(async () => {
    expect((await api().post("/v1/projects", { name: "History" })).status).toBe(201);
    expect((await api().post("/v1/projects/history/datasets", { name: "Answers" })).status).toBe(201);
    // Version 1: three rows; 2: r1 gets an expected output; 3: r3 is deleted.
    const rows = [
      { id: "r1", input: { q: "2+2?" }, output: "5" },
      { id: "r2", input: { q: "capital of France?" }, output: "Paris" },
      { id: "r3", input: { q: "spam" }, output: "eggs" },
    ];
    expect((await api().post(`${base}/rows`, { rows })).status).toBe(201);
    expect((await api().patch(`${base}/rows/r1`, { expectedOutput: "4" })).status).toBe(200);
    const deleted = await api().delete(`${base}/rows`, { selection: { mode: "selected", rowIds: ["r3"] } });
    expect(deleted.status).toBe(200);
    await signIn(watched.page, platform.baseUrl, platform.ownerKey);
  });
  // A failed test leaves a picture of where it stopped.
  afterEach(async ({ task }) => {
    if (task.result?.state === "fail") await screenshot(watched.page, `failed ${task.name}`.slice(0, 60));
  });
  const expectNoProblems = () =>
    expect(watched.problems.filter((p) => !/status of (401|412)/.test(p))).toEqual([]);

  it("opens version 1 read-only, with the row deleted since and without the later edit", async () => {
    await watched.page.goto(at("?version=1"));
    await watched.page.getByText("You are looking at version 1, read-only.").waitFor();
    const grid = watched.page.getByRole("grid", { name: "Dataset rows" });
    await grid.getByText("r3", { exact: true }).waitFor();
    await grid.getByText("eggs", { exact: true }).waitFor();
    expect(await grid.getByRole("row").count()).toBe(4); // the header and three rows
    expect(await watched.page.getByRole("button", { name: "Add row" }).count()).toBe(0);
    await expectAccessible(watched.page, "a version, read-only");
    await screenshot(watched.page, "history-version-1");
    // The export is of the version being viewed: the row deleted since is in it.
    await watched.page.getByText("Export", { exact: true }).click();
    const [download] = await Promise.all([
      watched.page.waitForEvent("download"),
      watched.page.getByRole("link", { name: "JSONL at version 1" }).click(),
    ]);
    const exported = (await readFile((await download.path()) ?? "", "utf8"))
      .trim()
      .split("\n")
      .map((line) => (JSON.parse(line) as { rowId: string }).rowId);
    expect(exported.sort()).toEqual(["r1", "r2", "r3"]);

    await watched.page.getByRole("link", { name: "Back to the current version" }).click();
    await expect.poll(() => watched.page.locator(".version-chip").textContent()).toMatch(/^Version\s*3$/);
    await expect.poll(() => grid.getByText("r3", { exact: true }).count()).toBe(0);
    expectNoProblems();
  });

  it("shows the diff of two versions with exactly the changed cells", async () => {
    await watched.page.goto(at("/versions"));
    await watched.page.getByRole("link", { name: "Open version 1" }).waitFor();
    await expectAccessible(watched.page, "the versions timeline");
    // Each version says who made it: here the owner's key.
    expect(await watched.page.getByText(/^API key \w{8}$/).count()).toBe(3);
    await screenshot(watched.page, "history-versions");

    await watched.page.getByRole("link", { name: "Compare versions" }).click();
    await watched.page.getByLabel("From version").fill("1");
    await watched.page.getByLabel("to version").fill("3");
    await watched.page.getByRole("button", { name: "Compare" }).click();
    await watched.page.waitForURL(/\/diff\?from=1&to=3$/);
    const list = watched.page.getByRole("list", { name: "Rows changed from version 1 to 3" });
    await list.waitFor();
    await watched.page.getByText("0 rows added, 1 row modified, 1 row removed.").waitFor();
    const entries = list.getByRole("listitem");
    expect(await entries.count()).toBe(2);

    const modified = entries.filter({ hasText: "r1" });
    await modified.getByText("modified").waitFor();
    const changed = modified.getByRole("table", { name: "Changed cells of row r1" });
    // Only the expected output changed: one cell, from not set to "4".
    expect(await changed.locator("tbody tr").count()).toBe(1);
    expect(await changed.locator("tbody tr th").textContent()).toBe("Expected output");
    expect(await changed.locator(".diff-after").textContent()).toBe("4");

    const removed = entries.filter({ hasText: "r3" });
    await removed.getByText("removed").waitFor();
    await removed.getByText("eggs").waitFor();
    await expectAccessible(watched.page, "the diff of two versions");
    await screenshot(watched.page, "history-diff");
    expectNoProblems();
  });

  it("restores version 1 as a new version equal to it, after asking", async () => {
    await watched.page.goto(at("/versions"));
    await watched.page.getByRole("button", { name: "Restore version 1" }).click();
    const dialog = watched.page.getByRole("dialog", { name: "Restore version 1?" });
    await dialog.waitFor();
    await expectAccessible(watched.page, "the restore confirmation");
    await dialog.getByRole("button", { name: "Restore version 1" }).click();
    await watched.page.getByText("Restored version 1 as version 4").waitFor();
    await watched.page.getByRole("link", { name: "Open version 4" }).waitFor();

    const diff = await api().get<Page_<unknown>>(`${base}/diff?from=1&to=4`);
    expect(diff.body.items).toEqual([]);
    const versions = await api().get<Page_<Version>>(`${base}/versions?limit=1`);
    expect(versions.body.items[0]).toMatchObject({
      version: 4,
      operation: "restore",
      actor: { kind: "session" },
    });
    // The timeline names this browser's own session as "You".
    const newest = watched.page
      .getByRole("row")
      .filter({ has: watched.page.getByRole("link", { name: "Open version 4" }) });
    await newest.getByText("You", { exact: true }).waitFor();
    await screenshot(watched.page, "history-restored");
    expectNoProblems();
  });

  it("shows a row's history with who changed which cell, and restores a cell with one click", async () => {
    await watched.page.goto(at("?row=r2"));
    const panel = watched.page.getByRole("complementary", { name: "Row r2" });
    await panel.waitFor();
    await replaceText(watched.page, "Output", "Paris, France");
    await watched.page.keyboard.press("Control+s");
    await watched.page.getByText("Saved row r2 as version 5").waitFor();

    const history = panel.getByRole("list", { name: "History of row r2" });
    const latest = history.getByRole("listitem").filter({ hasText: "Version 5" });
    await latest.getByText("by You").waitFor();
    await latest.getByText("Output: Paris → Paris, France").waitFor();
    const created = history.getByRole("listitem").filter({ hasText: "Version 1" });
    await created.getByText("created the row").waitFor();
    await created.getByText(/by API key \w{8}/).waitFor();
    await expectAccessible(watched.page, "a row's history");
    await screenshot(watched.page, "history-row");

    await latest.getByRole("button", { name: "Restore Output to its value before version 5" }).click();
    await watched.page.getByText("Restored Output of row r2 as version 6").waitFor();
    const row = await api().get<{ output: unknown; version: number }>(`${base}/rows/r2`);
    expect(row.body).toMatchObject({ output: "Paris", version: 6 });
    // The restore is itself in the history, and the cell now equals its old value: nothing to restore.
    await history.getByRole("listitem").filter({ hasText: "Version 6" }).waitFor();
    expect(
      await latest.getByRole("button", { name: "Restore Output to its value before version 5" }).count(),
    ).toBe(0);
    expectNoProblems();
  });

  describe("files", () => {
    const files = "/v1/projects/history/datasets/files";
    const filesAt = (path = "") => `${platform.baseUrl}/projects/history/datasets/files${path}`;
    beforeAll(async () => {
      expect((await api().post("/v1/projects/history/datasets", { name: "Files" })).status).toBe(201);
    });

    const csv = [
      "key,question,answer,notes,ignored",
      'a1,"{""q"": 1}",four,"two',
      'lines",x',
      'a2,hello,"",42,y',
      'a3,"with, comma",null,"""quoted""",z',
      "",
    ].join("\n");

    it("imports a CSV with a mapping, and its export gives back the same cells", async () => {
      await watched.page.goto(filesAt());
      await watched.page.getByText("This dataset has no rows yet.").waitFor();
      await watched.page.getByRole("button", { name: "Import", exact: true }).click();
      const dialog = watched.page.getByRole("dialog", { name: "Import a file" });
      await dialog.locator('input[type="file"]').setInputFiles({
        name: "answers.csv",
        mimeType: "text/csv",
        buffer: Buffer.from(csv),
      });
      // The first rows, as the file has them, then where each field goes.
      const preview = dialog.getByRole("table", { name: "First rows of the file" });
      await preview.getByText("with, comma").waitFor();
      expect(await preview.locator("tbody tr").count()).toBe(3);
      await expectAccessible(watched.page, "the import dialog with its mapping");
      await dialog.getByLabel("key", { exact: true }).selectOption("id");
      await dialog.getByLabel("question", { exact: true }).selectOption({ label: "Input" });
      await dialog.getByLabel("answer", { exact: true }).selectOption({ label: "Expected output" });
      expect(await dialog.getByLabel("notes", { exact: true }).inputValue()).toBe("new");
      await dialog.getByLabel("ignored", { exact: true }).selectOption({ label: "Don’t import" });
      await screenshot(watched.page, "import-mapping");
      await dialog.getByRole("button", { name: "Import rows" }).click();
      await dialog.getByText("Imported 3 rows as version 1.").waitFor();
      await screenshot(watched.page, "import-done");
      await dialog.getByRole("button", { name: "Close" }).click();
      await watched.page
        .getByRole("grid", { name: "Dataset rows" })
        .getByText("a3", { exact: true })
        .waitFor();

      const columns = await api().get<{ columns: { identifier: string; name: string }[] }>(
        `${files}/columns`,
      );
      const notes = columns.body.columns.find((c) => c.name === "notes")?.identifier ?? "";
      expect(columns.body.columns.map((c) => c.name)).not.toContain("ignored");
      const rows = await api().get<
        Page_<{ rowId: string; input: unknown; expectedOutput: unknown; custom: Record<string, unknown> }>
      >(`${files}/rows?sortDirection=asc`);
      const cells = rows.body.items.map((r) => [r.rowId, r.input, r.expectedOutput, r.custom[notes]]);
      expect(cells).toEqual([
        ["a1", { q: 1 }, "four", "two\nlines"],
        ["a2", "hello", null, 42],
        // A quoted string in a CSV field is JSON: the string inside.
        ["a3", "with, comma", null, "quoted"],
      ]);

      // The export link downloads the dataset as it is, with the session's cookie.
      await watched.page.getByText("Export", { exact: true }).click();
      const [download] = await Promise.all([
        watched.page.waitForEvent("download"),
        watched.page.getByRole("link", { name: "CSV", exact: true }).click(),
      ]);
      const exported = parse(await readFile((await download.path()) ?? ""), { columns: true }) as Record<
        string,
        string
      >[];
      const byId = Object.fromEntries(exported.map((row) => [row.id, row]));
      expect(Object.keys(byId).sort()).toEqual(["a1", "a2", "a3"]);
      expect(byId.a1).toMatchObject({ Input: '{"q":1}', "Expected output": "four", notes: "two\nlines" });
      expect(byId.a2).toMatchObject({ Input: "hello", "Expected output": "", notes: "42" });
      expect(byId.a3).toMatchObject({ Input: "with, comma", "Expected output": "", notes: "quoted" });
      // The same rows as Parquet, each cell its JSON value (the menu is still open).
      const exportMenu = watched.page.locator("details", {
        has: watched.page.getByText("Export", { exact: true }),
      });
      if ((await exportMenu.getAttribute("open")) === null) {
        await watched.page.getByText("Export", { exact: true }).click();
      }
      const [parquetDownload] = await Promise.all([
        watched.page.waitForEvent("download"),
        watched.page.getByRole("link", { name: "Parquet", exact: true }).click(),
      ]);
      expect(parquetDownload.suggestedFilename()).toMatch(/\.parquet$/);
      const parquet = await readFile((await parquetDownload.path()) ?? "");
      const parquetRows = await parquetReadObjects({
        file: parquet.buffer.slice(parquet.byteOffset, parquet.byteOffset + parquet.byteLength),
      });
      expect(Object.fromEntries(parquetRows.map((row) => [row.id, row.notes]))).toEqual({
        a1: "two\nlines",
        a2: 42,
        a3: "quoted",
      });

      // And that file, imported back as an update, changes nothing: the round trip is exact.
      await watched.page.getByRole("button", { name: "Import", exact: true }).click();
      expect(download.suggestedFilename()).toMatch(/\.csv$/);
      await dialog.locator('input[type="file"]').setInputFiles({
        name: download.suggestedFilename(),
        mimeType: "text/csv",
        buffer: await readFile((await download.path()) ?? ""),
      });
      await dialog.getByRole("table", { name: "First rows of the file" }).waitFor();
      await dialog.getByText("Update existing rows", { exact: false }).click();
      await dialog.getByRole("button", { name: "Update rows" }).click();
      await dialog.getByText(/^Nothing changed/).waitFor();
      // No version was made, so none is announced.
      expect(
        await watched.page.getByText(/^(Updated .* as version|Imported the file as version)/).count(),
      ).toBe(0);
      await dialog.getByRole("button", { name: "Close" }).click();
      expect((await api().get<{ version: number }>(files)).body.version).toBe(1);
      expectNoProblems();
    });

    it("shows the line that stops a bad CSV, and writes nothing", async () => {
      await watched.page.goto(filesAt());
      await watched.page.getByRole("button", { name: "Import", exact: true }).click();
      const dialog = watched.page.getByRole("dialog", { name: "Import a file" });
      await dialog.locator('input[type="file"]').setInputFiles({
        name: "bad.csv",
        mimeType: "text/csv",
        buffer: Buffer.from("input,output\nb1,one\nb2,two,three\nb3,four\n"),
      });
      await dialog.getByRole("button", { name: "Import rows" }).click();
      await dialog.getByText("Line 3 stopped the import.").waitFor();
      await dialog.getByText(/another number of fields than the header row/).waitFor();
      await expectAccessible(watched.page, "a failed import");
      await screenshot(watched.page, "import-bad-line");
      expect((await api().get<{ version: number }>(files)).body.version).toBe(1);
      await dialog.getByRole("button", { name: "Close" }).click();
      expectNoProblems();
    });
  });

  describe("drafts across rows", () => {
    const edits = "/v1/projects/history/datasets/session";
    const sessionAt = (path = "") => `${platform.baseUrl}/projects/history/datasets/session${path}`;
    beforeAll(async () => {
      expect((await api().post("/v1/projects/history/datasets", { name: "Session" })).status).toBe(201);
      const rows = ["s1", "s2", "s3", "s4"].map((id) => ({ id, input: { q: id }, output: `out ${id}` }));
      expect((await api().post(`${edits}/rows`, { rows })).status).toBe(201);
    });
    const bar = () => watched.page.getByRole("region", { name: "Unsaved edits" });
    const openRow = async (rowId: string) => {
      await watched.page
        .getByRole("grid", { name: "Dataset rows" })
        .getByText(rowId, { exact: true })
        .click();
      await watched.page.getByRole("complementary", { name: `Row ${rowId}` }).waitFor();
    };

    it("stages edits across rows, keeps them through a reload, and saves them as one version", async () => {
      await watched.page.goto(sessionAt());
      await openRow("s1");
      await replaceText(watched.page, "Expected output", "e1");
      await replaceText(watched.page, "Output", "changed s1");
      await openRow("s2");
      await replaceText(watched.page, "Expected output", "e2");
      await replaceText(watched.page, "Metadata", '{"checked": true}');
      await openRow("s3");
      await replaceText(watched.page, "Expected output", "e3");
      await replaceText(watched.page, "Metadata", '{"undo": "me"}');
      await bar().getByText("6 unsaved edits in 3 rows").waitFor();
      expect(await watched.page.locator("#row-s2").getAttribute("class")).toContain("dirty");

      // Leaving asks first; kept in this browser, a visit elsewhere loses nothing.
      const asked: string[] = [];
      watched.page.once("dialog", (dialog) => {
        asked.push(dialog.type());
        void dialog.accept();
      });
      await watched.page.goto(`${platform.baseUrl}/projects`);
      expect(asked).toEqual(["beforeunload"]);
      await watched.page.goto(sessionAt());
      await bar().getByText("6 unsaved edits in 3 rows").waitFor();
      await openRow("s1");
      await watched.page
        .getByRole("complementary", { name: "Row s1" })
        .getByText("2 changed cells")
        .waitFor();
      const stored = await storedDrafts(watched.page);
      expect(stored).toContain("e2");
      expect(stored).not.toContain("svc_");
      expect(await watched.page.evaluate<string>("JSON.stringify(localStorage)")).not.toContain("svc_");

      await bar().getByRole("button", { name: "Review" }).click();
      const review = watched.page.getByRole("dialog", { name: "Unsaved edits" });
      await review.getByRole("table", { name: "Unsaved edits, row by row" }).waitFor();
      expect(await review.locator("tbody tr").count()).toBe(6);
      await expectAccessible(watched.page, "the review of the drafts");
      await screenshot(watched.page, "edit-session-review");
      await review.getByRole("button", { name: "Undo the edit of Metadata in row s3" }).click();
      expect(await review.locator("tbody tr").count()).toBe(5);
      await review.getByRole("button", { name: "Save all as one version" }).click();
      await watched.page.getByText("Saved 5 edits in 3 rows as version 2").waitFor();
      await expect.poll(() => bar().count()).toBe(0);

      const version = await api().get<Version & { rowsUpdated: number }>(`${edits}/versions/2`);
      expect(version.body).toMatchObject({ operation: "update", rowsUpdated: 3, actor: { kind: "session" } });
      const rows = await api().get<
        Page_<{ rowId: string; output: unknown; expectedOutput: unknown; metadata: unknown }>
      >(`${edits}/rows?sortDirection=asc`);
      expect(rows.body.items.map((r) => [r.rowId, r.output, r.expectedOutput, r.metadata])).toEqual([
        ["s1", "changed s1", "e1", null],
        ["s2", "out s2", "e2", { checked: true }],
        ["s3", "out s3", "e3", null],
        ["s4", "out s4", null, null],
      ]);
      await screenshot(watched.page, "edit-session-saved");
      expectNoProblems();
    });

    it("shows a conflicting save's rows, loses nothing, and saves the choice made", async () => {
      await watched.page.goto(sessionAt());
      await openRow("s4");
      await replaceText(watched.page, "Expected output", "mine");
      await openRow("s1");
      await replaceText(watched.page, "Metadata", '{"reviewed": true}');
      await bar().getByText("2 unsaved edits in 2 rows").waitFor();
      // Someone else edits s4 before this session is saved.
      const theirs = await api().patch<{ version: number }>(`${edits}/rows/s4`, { output: "theirs" });
      expect(theirs.status).toBe(200);

      await bar().getByRole("button", { name: "Save all" }).click();
      const conflict = watched.page.getByRole("dialog", { name: "Someone else changed row s4" });
      await conflict.waitFor();
      await conflict.getByText(`now at version ${theirs.body.version}, you began at 1`).waitFor();
      await expectAccessible(watched.page, "a conflicting save");
      await screenshot(watched.page, "edit-session-conflict");
      // Nothing was saved, and nothing is lost.
      expect((await api().get<{ version: number }>(edits)).body.version).toBe(theirs.body.version);
      await conflict.getByRole("button", { name: "Decide later" }).click();
      // Unsaved edits make the reload ask first; the person goes on.
      watched.page.once("dialog", (dialog) => void dialog.accept());
      await watched.page.reload();
      await bar().getByText("2 unsaved edits in 2 rows").waitFor();

      await bar().getByRole("button", { name: "Save all" }).click();
      await conflict.getByRole("radio", { name: "Keep mine" }).check();
      await conflict.getByRole("button", { name: "Save with these choices" }).click();
      await watched.page.getByText(`Saved 2 edits in 2 rows as version ${theirs.body.version + 1}`).waitFor();
      const s4 = await api().get<{ output: unknown; expectedOutput: unknown }>(`${edits}/rows/s4`);
      expect(s4.body).toMatchObject({ output: "theirs", expectedOutput: "mine" });
      const s1 = await api().get<{ metadata: unknown }>(`${edits}/rows/s1`);
      expect(s1.body.metadata).toEqual({ reviewed: true });
      expectNoProblems();
    });
  });

  describe("bulk work", () => {
    const bulk = "/v1/projects/history/datasets/bulk";
    const bulkAt = (path = "") => `${platform.baseUrl}/projects/history/datasets/bulk${path}`;
    beforeAll(async () => {
      expect((await api().post("/v1/projects/history/datasets", { name: "Bulk" })).status).toBe(201);
      expect((await api().post("/v1/projects/history/datasets", { name: "Golden" })).status).toBe(201);
      // 250 rows, more than the grid's first page; the 100 newest lack an expected output.
      const rows = Array.from({ length: 250 }, (_, i) => {
        const id = `b${String(i).padStart(3, "0")}`;
        return {
          id,
          input: { n: i },
          output: `out ${i}`,
          ...(i < 150 ? { expectedOutput: `exp ${i}` } : {}),
        };
      });
      expect((await api().post(`${bulk}/rows`, { rows })).status).toBe(201);
    });
    const selection = () => watched.page.getByRole("region", { name: "Selected rows" });

    it("selects rows with a click and a shift-click, and copies them to another dataset", async () => {
      await watched.page.goto(bulkAt());
      const grid = watched.page.getByRole("grid", { name: "Dataset rows" });
      await grid.getByText("b249", { exact: true }).waitFor();
      await watched.page.getByRole("checkbox", { name: "Select row b249" }).click();
      await watched.page.getByRole("checkbox", { name: "Select row b245" }).click({ modifiers: ["Shift"] });
      await selection().getByText("5 selected").waitFor();
      await selection().getByRole("button", { name: "Copy to…" }).click();
      const dialog = watched.page.getByRole("dialog", { name: "Copy 5 rows to another dataset" });
      await dialog.getByLabel("Copy into").selectOption({ label: "Golden" });
      await expectAccessible(watched.page, "the copy dialog");
      await dialog.getByRole("button", { name: "Copy 5 rows" }).click();
      await watched.page.getByText("Copied 5 rows to Golden as its version 1").waitFor();
      const copies = await api().get<Page_<{ output: unknown; metadata: { copiedFrom: { rowId: string } } }>>(
        "/v1/projects/history/datasets/golden/rows",
      );
      expect(copies.body.items.map((r) => r.metadata.copiedFrom.rowId).sort()).toEqual([
        "b245",
        "b246",
        "b247",
        "b248",
        "b249",
      ]);
      expectNoProblems();
    });

    it("sets the expected output from the output on the 100 rows missing one, as one version, after a preview", async () => {
      await watched.page.goto(bulkAt());
      await watched.page.getByRole("button", { name: "Missing expected output" }).click();
      await watched.page.getByText("100 rows match").waitFor();
      await watched.page.getByRole("checkbox", { name: "Select every loaded row" }).check();
      await selection().getByText("100 selected").waitFor();
      await selection().getByRole("button", { name: "Set a cell…" }).click();
      const dialog = watched.page.getByRole("dialog", { name: "Set a cell in 100 rows" });
      expect(await dialog.getByLabel("Cell to set").inputValue()).toBe("expectedOutput");
      expect(await dialog.getByLabel("Copy from").inputValue()).toBe("output");
      await dialog.getByText("100 rows of 100 will change, as one version.").waitFor();
      const preview = dialog.getByRole("table", { name: "Preview of the change" });
      expect(await preview.locator("tbody tr").count()).toBe(8);
      await preview.getByText("out 249").waitFor();
      await expectAccessible(watched.page, "the set-a-cell preview");
      await screenshot(watched.page, "bulk-set-cell");
      // Taller than the window, the dialog scrolls, and its actions stay in view at its bottom edge.
      const submit = dialog.getByRole("button", { name: "Set Expected output in 100 rows" });
      expect(await dialog.evaluate((element) => element.scrollHeight > element.clientHeight)).toBe(true);
      const button = await submit.boundingBox();
      const window = watched.page.viewportSize();
      expect(button && window && button.y + button.height <= window.height).toBe(true);
      await submit.click();
      await watched.page.getByText("Set the cell in 100 rows as version 2").waitFor();

      const version = await api().get<Version & { rowsUpdated: number }>(`${bulk}/versions/2`);
      expect(version.body).toMatchObject({ operation: "update", rowsUpdated: 100 });
      const missing = await api().get<Page_<unknown>>(`${bulk}/rows?missing=expectedOutput`);
      expect(missing.body.items).toEqual([]);
      const b200 = await api().get<{ expectedOutput: unknown }>(`${bulk}/rows/b200`);
      expect(b200.body.expectedOutput).toBe("out 200");
      expectNoProblems();
    });

    it("selects every row, beyond those loaded, and deletes them as one version", async () => {
      await watched.page.goto(bulkAt());
      // The grid has the first page of 200; the rest are beyond it.
      // The exact count, though only 200 are loaded.
      await watched.page.getByText("250 rows", { exact: true }).waitFor();
      await watched.page.getByRole("checkbox", { name: "Select every loaded row" }).check();
      await selection().getByText("200 selected").waitFor();
      await selection().getByRole("button", { name: "Select all rows" }).click();
      await selection().getByText("250 selected").waitFor();
      await screenshot(watched.page, "bulk-all-selected");
      await selection().getByRole("button", { name: "Delete 250 rows" }).click();
      await watched.page
        .getByRole("dialog", { name: "Delete 250 rows?" })
        .getByRole("button", { name: "Delete 250 rows" })
        .click();
      await watched.page.getByText("Deleted 250 rows as version 3").waitFor();
      await watched.page.getByText("This dataset has no rows yet.").waitFor();
      expectNoProblems();
    });
  });

  describe("filters", () => {
    const filtersBase = "/v1/projects/history/datasets/filters";
    beforeAll(async () => {
      expect((await api().post("/v1/projects/history/datasets", { name: "Filters" })).status).toBe(201);
      const rows = [
        { id: "f1", input: "capital of France?", metadata: { source: "prod" }, expectedOutput: "Paris" },
        { id: "f2", input: "capital of Spain?", metadata: { source: "prod" } },
        { id: "f3", input: "capital of Italy?", metadata: { source: "dev" } },
        { id: "f4", input: "2+2?", metadata: { source: "prod" } },
      ];
      expect((await api().post(`${filtersBase}/rows`, { rows })).status).toBe(201);
    });

    it("combines a value filter, an empty cell and search, in an address another person can open", async () => {
      await watched.page.goto(`${platform.baseUrl}/projects/history/datasets/filters`);
      await watched.page.getByText("4 rows", { exact: true }).waitFor();
      await watched.page.getByRole("button", { name: "Add filter" }).click();
      const dialog = watched.page.getByRole("dialog", { name: "Add a filter" });
      await dialog.getByLabel("Cell").selectOption({ label: "Metadata" });
      await dialog.getByLabel("Condition").selectOption("equals");
      await dialog.getByLabel("Path inside the cell (optional)").fill("source");
      // Typed as text, with no quotes; the dialog says how it reads it.
      await dialog.getByLabel("Value", { exact: true }).fill("prod");
      await dialog.getByText('Compared with "prod" (text)').waitFor();
      await expectAccessible(watched.page, "the filter dialog");
      await dialog.getByRole("button", { name: "Add filter" }).click();
      await watched.page.getByText("3 rows match").waitFor();
      await watched.page.getByRole("button", { name: "Missing expected output" }).click();
      await watched.page.getByText("2 rows match").waitFor();
      await watched.page.getByRole("searchbox", { name: "Search rows" }).fill("capital");
      await watched.page.getByText("1 row matches").waitFor();
      const grid = watched.page.getByRole("grid", { name: "Dataset rows" });
      await grid.getByText("f2", { exact: true }).waitFor();
      await screenshot(watched.page, "filters");

      const address = new URL(watched.page.url());
      expect(address.searchParams.getAll("where")).toEqual(['metadata.source="prod"']);
      expect(address.searchParams.get("missing")).toBe("expectedOutput");
      expect(address.searchParams.get("q")).toBe("capital");
      // The same address in another tab shows the same rows, with the filters named.
      const other = await watched.context.newPage();
      await other.goto(address.toString());
      await other.getByText("1 row matches").waitFor();
      await other.getByRole("grid", { name: "Dataset rows" }).getByText("f2", { exact: true }).waitFor();
      expect(await other.getByRole("searchbox", { name: "Search rows" }).inputValue()).toBe("capital");
      await other.getByRole("button", { name: 'Remove the filter Metadata.source = "prod" (text)' }).click();
      await other.getByText("2 rows match").waitFor();
      expect(new URL(other.url()).searchParams.getAll("where")).toEqual([]);
      await other.close();
      expectNoProblems();
    });
  });

  describe("traces to rows", () => {
    /** An OTLP/HTTP JSON export of one root span with a prompt, a completion and a tag. */
    const exportOf = (traceId: string, name: string, question: string, answer: string, tag: string) => ({
      resourceSpans: [
        {
          scopeSpans: [
            {
              scope: { name: "agent" },
              spans: [
                {
                  traceId,
                  spanId: traceId.slice(0, 16),
                  name,
                  kind: 1,
                  startTimeUnixNano: "1714564800000000000",
                  endTimeUnixNano: "1714564801500000000",
                  attributes: [
                    { key: "gen_ai.prompt", value: { stringValue: question } },
                    { key: "gen_ai.completion", value: { stringValue: answer } },
                    { key: "tags", value: { stringValue: tag } },
                  ],
                },
              ],
            },
          ],
        },
      ],
    });
    const traceIds = ["a", "b", "c"].map((c) => c.repeat(32));
    beforeAll(async () => {
      expect((await api().post("/v1/projects/history/datasets", { name: "From traces" })).status).toBe(201);
      const traces = [
        exportOf(traceIds[0] as string, "answer-question", "capital of France?", "Paris", "geo"),
        exportOf(traceIds[1] as string, "answer-question", "capital of Peru?", "Lima", "geo"),
        exportOf(traceIds[2] as string, "summarize", "a long text", "short", "docs"),
      ];
      for (const body of traces) {
        const sent = await api().post("/v1/traces", body, { "x-svc-project": "history" });
        expect(sent.status).toBe(200);
      }
    });

    it("filters the project's traces, imports the selected ones, and each row links back to its trace", async () => {
      await watched.page.goto(`${platform.baseUrl}/projects/history`);
      await watched.page.getByRole("link", { name: "Traces", exact: true }).click();
      const table = watched.page.getByRole("table", { name: "Traces, newest first" });
      await table.locator("tbody tr").nth(2).waitFor();
      await watched.page.getByRole("textbox", { name: "Tag" }).fill("geo");
      await watched.page.getByRole("button", { name: "Filter", exact: true }).click();
      await watched.page.waitForURL(/tag=geo/);
      await expect.poll(() => table.locator("tbody tr").count()).toBe(2);
      await expectAccessible(watched.page, "the traces page");
      await watched.page.getByRole("checkbox", { name: "Select every loaded trace" }).check();
      await watched.page.getByRole("region", { name: "Selected traces" }).getByText("2 selected").waitFor();
      await watched.page.getByRole("button", { name: "Add to a dataset…" }).click();
      const dialog = watched.page.getByRole("dialog", { name: "Add 2 traces to a dataset" });
      await dialog.getByLabel("Dataset").selectOption({ label: "From traces" });
      await dialog.getByText("capital of Peru?").waitFor();
      await expectAccessible(watched.page, "the preview of rows from traces");
      await screenshot(watched.page, "traces-import");
      await dialog.getByRole("button", { name: "Add 2 traces" }).click();
      await watched.page.getByText(/^Added 2 rows to From traces as version 1/).waitFor();

      const rows = await api().get<
        Page_<{ rowId: string; input: unknown; output: unknown; metadata: { traceId: string } }>
      >("/v1/projects/history/datasets/from-traces/rows?sortDirection=asc");
      expect(rows.body.items.map((r) => r.metadata.traceId).sort()).toEqual([traceIds[0], traceIds[1]]);
      const lima = rows.body.items.find((r) => r.metadata.traceId === traceIds[1]);
      await watched.page.goto(`${platform.baseUrl}/projects/history/datasets/from-traces?row=${lima?.rowId}`);
      const panel = watched.page.getByRole("complementary", { name: `Row ${lima?.rowId}` });
      const link = panel.getByRole("link", { name: /^From trace bbbbbbbbbbbb/ });
      await link.waitFor();
      // The page writes nothing to the address on its own: a late write would undo a link's navigation.
      const entryKey = () =>
        watched.page.evaluate(
          () => (globalThis as unknown as { history: { state: { key?: string } | null } }).history.state?.key,
        );
      const entry = await entryKey();
      await watched.page.waitForTimeout(400);
      expect(await entryKey()).toBe(entry);
      await link.click();
      await watched.page.waitForURL(new RegExp(`/traces/${traceIds[1]}$`));
      await watched.page.getByRole("heading", { name: "answer-question", level: 1 }).waitFor();
      await watched.page.getByText('"Lima"').or(watched.page.getByText("Lima")).first().waitFor();
      await expectAccessible(watched.page, "a trace");
      await screenshot(watched.page, "trace");
      expectNoProblems();
    });
  });

  describe("exact row counts", () => {
    const counted = "/v1/projects/history/datasets/counted";
    beforeAll(async () => {
      expect((await api().post("/v1/projects/history/datasets", { name: "Counted" })).status).toBe(201);
      const rows = Array.from({ length: 1_000 }, (_, i) => ({
        id: `c${String(i).padStart(4, "0")}`,
        input: i,
      }));
      expect((await api().post(`${counted}/rows`, { rows })).status).toBe(201); // v1: 1,000
      expect((await api().post(`${counted}/rows`, { rows: [{ id: "extra", input: 0 }] })).status).toBe(201); // v2: 1,001
      const deleted = await api().delete(`${counted}/rows`, {
        selection: { mode: "selected", rowIds: ["extra", "c0000"] },
      }); // v3: 999
      expect(deleted.status).toBe(200);
    });

    it("gives the exact row count in the list, before deleting, on the dataset's page and in its versions", async () => {
      await watched.page.goto(`${platform.baseUrl}/projects/history`);
      await watched.page.getByText("999 rows · version 3 · 4 columns").waitFor();
      await watched.page.getByRole("button", { name: "Delete Counted" }).click();
      const confirm = watched.page.getByRole("dialog", { name: "Delete Counted?" });
      await confirm
        .getByText(
          "Its 999 rows, its 4 columns and 3 versions of history will be deleted. This cannot be undone.",
        )
        .waitFor();
      await confirm.getByRole("button", { name: "Cancel" }).click();

      // 200 rows are loaded; the count is the dataset's own, and a pinned version's its own.
      await watched.page.goto(`${platform.baseUrl}/projects/history/datasets/counted`);
      await watched.page.getByText("999 rows", { exact: true }).waitFor();
      await watched.page.goto(`${platform.baseUrl}/projects/history/datasets/counted?version=2`);
      await watched.page.getByText("1,001 rows", { exact: true }).waitFor();

      await watched.page.goto(`${platform.baseUrl}/projects/history/datasets/counted/versions`);
      const versions = watched.page.getByRole("table", { name: "Versions, newest first" });
      await versions.getByRole("columnheader", { name: "Rows" }).waitFor();
      const rowsColumn = versions.locator("tbody tr > :nth-child(7)");
      await expect.poll(() => rowsColumn.allTextContents()).toEqual(["999", "1,001", "1,000"]);
      await screenshot(watched.page, "versions-row-counts");
      expectNoProblems();
    });
  });

  describe("a jump to a position", () => {
    beforeAll(async () => {
      expect((await api().post("/v1/projects/history/datasets", { name: "Long" })).status).toBe(201);
      const rows = Array.from({ length: 1_000 }, (_, i) => ({
        id: `j${String(i).padStart(4, "0")}`,
        input: i,
      }));
      expect((await api().post("/v1/projects/history/datasets/long/rows", { rows })).status).toBe(201);
    });

    it("goes to row 700 of 1,000 in the grid's one scroll area, in the address, and back to the top", async () => {
      await watched.page.goto(`${platform.baseUrl}/projects/history/datasets/long`);
      const grid = watched.page.getByRole("grid", { name: "Dataset rows" });
      const scrollTop = () => watched.page.locator(".grid-scroller").evaluate((element) => element.scrollTop);
      await grid.getByText("j0999", { exact: true }).waitFor();
      await watched.page.getByRole("textbox", { name: "Go to row number" }).fill("700");
      await watched.page.keyboard.press("Enter");
      // Newest first: row 700 of 1,000 is the 301st created, now at the top of the view.
      const row700 = grid.locator('[id="row-j0300"]');
      await row700.waitFor();
      expect(await row700.getAttribute("aria-rowindex")).toBe("701");
      expect(await scrollTop()).toBe(699 * 36);
      expect(new URL(watched.page.url()).searchParams.get("from")).toBe("700");
      await watched.page.getByText("1,000 rows", { exact: true }).waitFor();
      await expectAccessible(watched.page, "the list from a position");
      await screenshot(watched.page, "jump");
      // The address opens at the same place.
      await watched.page.reload();
      await row700.waitFor();
      expect(await scrollTop()).toBe(699 * 36);
      await grid.focus();
      await watched.page.keyboard.press("Home");
      await grid.getByText("j0999", { exact: true }).waitFor();
      expect(await scrollTop()).toBe(0);
      expectNoProblems();
    });
  });
});
