import { startEmbedded, type Target } from "@svc/testing/platform";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client } from "../../http";
import { chromiumAvailable, chromiumForSuite, openSignedInPage } from "../../web/harness";

/**
 * A JSON cell is a plain text area until CodeMirror has loaded (most of the page's code, loaded when
 * an editor first opens), then CodeMirror with the same text. Someone typing while it loads, on a
 * slow connection, must not see the rest of their typing land elsewhere than where they were.
 */
describe.runIf(chromiumAvailable())("a JSON editor that loads while someone types", () => {
  const chromium = chromiumForSuite();
  let platform: Target;
  beforeAll(async () => {
    platform = await startEmbedded();
    const api = client(platform.baseUrl, platform.ownerKey);
    expect((await api.post("/v1/projects", { name: "Typing" })).status).toBe(201);
    expect((await api.post("/v1/projects/typing/datasets", { name: "Answers" })).status).toBe(201);
  }, 120_000);
  afterAll(async () => {
    await platform?.stop();
  });

  it("goes on typing where the caret was in the text area, with no moment when a key is lost", async () => {
    const { context, page, problems } = await openSignedInPage(
      chromium.browser,
      platform.baseUrl,
      platform.ownerKey,
    );
    // The editor's code arrives only when the test lets it: half the text is typed before.
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let requested = false;
    await context.route(/json-editor-cm-[^/]*\.js$/, async (route) => {
      requested = true;
      await released;
      await route.continue();
    });
    await page.goto(`${platform.baseUrl}/projects/typing/datasets/answers`);
    await page.getByRole("button", { name: "Add row" }).first().click();
    const dialog = page.getByRole("dialog");
    const input = dialog.getByLabel("New row Input", { exact: true });
    await input.click();
    expect(await input.evaluate((element) => element.tagName)).toBe("TEXTAREA");
    await page.keyboard.press("Control+a");
    await page.keyboard.press("Backspace");
    await page.keyboard.type('{"question": ');
    expect(requested).toBe(true);

    // Where the focus is when the text area leaves the page: a key pressed at that moment goes there.
    await page.evaluate(`{
      const observer = new MutationObserver(() => {
        if (document.querySelector("textarea[aria-label='New row Input']")) return;
        observer.disconnect();
        window.focusWhenSwapped = document.activeElement?.getAttribute("aria-label") ?? "nothing";
      });
      observer.observe(document.body, { childList: true, subtree: true });
    }`);
    release();
    await dialog.locator('.cm-content[aria-label="New row Input"]').waitFor();
    expect(await page.evaluate<string>("window.focusWhenSwapped")).toBe("New row Input");
    await page.keyboard.type('"2+2?"}');
    await expect
      .poll(() => dialog.locator('.cm-content[aria-label="New row Input"]').textContent())
      .toBe('{"question": "2+2?"}');
    expect(problems).toEqual([]);
    await context.close();
  }, 120_000);
});
