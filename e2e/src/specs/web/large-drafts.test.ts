import { startEmbedded, type Target } from "@svc/testing/platform";
import type { Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { client } from "../../http";
import {
  chromiumAvailable,
  chromiumForSuite,
  expectAccessible,
  openSignedInPage,
  screenshot,
  type WatchedPage,
} from "../../web/harness";

/** The page's clipboard, as the test reaches it (this package is not compiled with the DOM's types). */
interface WithClipboard {
  navigator: { clipboard: { writeText(text: string): Promise<void> } };
}

/** A 5 MiB JSON string: more than a browser's local storage holds for a whole origin. */
/** A 5 MiB text, pasted as text into a cell that starts in Text mode. */
const LARGE = "x".repeat(5 * 1024 * 1024);

/**
 * Unsaved edits far larger than local storage holds, in Debian's Chromium against the embedded
 * platform: the page stays up, the draft survives a reload, and saving either works or says why not.
 * When the browser refuses to store a draft at all, the person is told, and the edit can still be saved.
 */
describe.runIf(chromiumAvailable())("a draft larger than the browser's local storage", () => {
  const chromium = chromiumForSuite();
  let platform: Target;
  let roomy: Target;
  const rowsOf = (project: string) => `/v1/projects/${project}/datasets/answers`;

  async function makeDataset(target: Target, project: string): Promise<void> {
    const api = client(target.baseUrl, target.ownerKey);
    expect((await api.post("/v1/projects", { name: project })).status).toBe(201);
    expect((await api.post(`/v1/projects/${project}/datasets`, { name: "Answers" })).status).toBe(201);
    const rows = [{ id: "r1", input: { q: "2+2?" }, output: "4" }];
    expect((await api.post(`${rowsOf(project)}/rows`, { rows })).status).toBe(201);
  }

  beforeAll(async () => {
    // The platform as it comes (a body of at most 1 MiB), and one that accepts the large value.
    [platform, roomy] = await Promise.all([
      startEmbedded(),
      startEmbedded({ SVC_BODY_LIMIT: String(16 * 1024 * 1024) }),
    ]);
    await makeDataset(platform, "large");
    await makeDataset(roomy, "large");
  }, 120_000);
  afterAll(async () => {
    await Promise.all([platform?.stop(), roomy?.stop()]);
  });

  // A failed test leaves a picture of where it stopped.
  let current: WatchedPage | undefined;
  afterEach(async ({ task }) => {
    if (task.result?.state === "fail" && current) {
      await screenshot(current.page, `failed ${task.name}`.slice(0, 60));
    }
    await current?.context.close();
    current = undefined;
  });

  async function openRow(target: Target, init?: string): Promise<WatchedPage> {
    const watched = await openSignedInPage(chromium.browser, target.baseUrl, target.ownerKey);
    current = watched;
    if (init) await watched.context.addInitScript(init);
    await watched.context.grantPermissions(["clipboard-read", "clipboard-write"], {
      origin: target.baseUrl,
    });
    await watched.page.goto(`${target.baseUrl}/projects/large/datasets/answers?row=r1`);
    await watched.page.getByRole("complementary", { name: "Row r1" }).waitFor();
    return watched;
  }

  /** Pastes `text` over the whole of a cell editor, as a person does with Ctrl+V. */
  async function paste(page: Page, label: string, text: string): Promise<void> {
    const editor = page.getByRole("complementary").getByLabel(label, { exact: true });
    await editor.locator(".cm-line").or(editor).first().waitFor();
    await editor.click();
    await page.evaluate(
      (value) => (globalThis as unknown as WithClipboard).navigator.clipboard.writeText(value),
      text,
    );
    await page.keyboard.press("Control+a");
    await page.keyboard.press("Control+v");
  }

  const panel = (page: Page) => page.getByRole("complementary", { name: "Row r1" });
  const bar = (page: Page) => page.getByRole("region", { name: "Unsaved edits" });

  /** Reloads the page, answering the question leaving with unsaved edits asks. */
  async function reload(page: Page): Promise<void> {
    page.once("dialog", (dialog) => void dialog.accept());
    await page.reload();
    await panel(page).waitFor();
  }

  it("keeps a 5 MiB paste through a reload, and says the platform refuses it while keeping it", async () => {
    const { page, problems } = await openRow(platform);
    await paste(page, "Expected output", LARGE);
    await panel(page).getByText("1 changed cell").waitFor({ timeout: 30_000 });
    await bar(page).getByText("1 unsaved edit in 1 row").waitFor();
    // Stored where there is room for it: no warning, and nothing went wrong.
    await page.waitForTimeout(500);
    expect(await page.getByText(/not kept across reloads/).count()).toBe(0);
    expect(problems).toEqual([]);

    await reload(page);
    await panel(page).getByText("1 changed cell").waitFor({ timeout: 30_000 });
    await bar(page).getByText("1 unsaved edit in 1 row").waitFor();

    // The platform as it comes takes at most 1 MiB in one request: it says so, and keeps the edit.
    await panel(page).getByRole("button", { name: "Save" }).click();
    const refusal = panel(page).getByRole("alert");
    await refusal.getByText("Not saved: this edit is 5.0 MB; your edit is kept in this browser.").waitFor();
    await refusal.getByText(/larger than the 1\.0 MB the platform accepts in one request/).waitFor();
    await expectAccessible(page, "a refused large edit");
    await screenshot(page, "large-draft-refused");
    const row = await client(platform.baseUrl, platform.ownerKey).get<{ expectedOutput: unknown }>(
      `${rowsOf("large")}/rows/r1`,
    );
    expect(row.body.expectedOutput).toBeNull();

    await reload(page);
    await panel(page).getByText("1 changed cell").waitFor({ timeout: 30_000 });
    expect(problems.filter((p) => !/status of 413/.test(p))).toEqual([]);
  }, 180_000);

  it("saves a 5 MiB paste kept through a reload on a platform that accepts it", async () => {
    const { page, problems } = await openRow(roomy);
    await paste(page, "Expected output", LARGE);
    await panel(page).getByText("1 changed cell").waitFor({ timeout: 30_000 });
    await reload(page);
    await panel(page).getByText("1 changed cell").waitFor({ timeout: 30_000 });

    await panel(page).getByRole("button", { name: "Save" }).click();
    await page.getByText("Saved row r1 as version 2").waitFor({ timeout: 30_000 });
    await expect.poll(() => bar(page).count()).toBe(0);
    const row = await client(roomy.baseUrl, roomy.ownerKey).get<{ expectedOutput: unknown }>(
      `${rowsOf("large")}/rows/r1`,
    );
    expect(row.body.expectedOutput).toBe(LARGE);
    await screenshot(page, "large-draft-saved");
    expect(problems).toEqual([]);
  }, 180_000);

  it("says a draft is not kept across reloads when the browser refuses to store it, and still saves it", async () => {
    // Every storage the page could keep a draft in refuses it, as a full disk or a strict profile does.
    const { page, problems } = await openRow(
      platform,
      `{
        const refuse = () => {
          throw new DOMException("The quota has been exceeded.", "QuotaExceededError");
        };
        Storage.prototype.setItem = refuse;
        IDBObjectStore.prototype.put = refuse;
        IDBObjectStore.prototype.add = refuse;
      }`,
    );
    await paste(page, "Output", "four");
    await panel(page).getByText("1 changed cell").waitFor();
    const warning = page.getByRole("alert").filter({ hasText: /not kept across reloads/ });
    await warning.waitFor();
    await warning.getByText(/It stays on this page; save it before you leave/).waitFor();
    await expectAccessible(page, "a draft the browser would not store");
    await screenshot(page, "draft-not-stored");

    await panel(page).getByRole("button", { name: "Save" }).click();
    await page.getByText("Saved row r1 as version 2").waitFor();
    const row = await client(platform.baseUrl, platform.ownerKey).get<{ output: unknown }>(
      `${rowsOf("large")}/rows/r1`,
    );
    expect(row.body.output).toBe("four");
    // Nothing is left unsaved, so nothing is left to warn about.
    await expect.poll(() => warning.count()).toBe(0);
    expect(problems).toEqual([]);
  }, 120_000);
});
