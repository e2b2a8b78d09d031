import { realInfra } from "@svc/testing";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { client } from "../../http";
import { type Platform, startPlatform, waitFor } from "../../platform";
import { startEmbedded, type Target } from "../../targets";
import {
  chromiumAvailable,
  expectAccessible,
  launchChromium,
  openPage,
  replaceText,
  screenshot,
  signIn,
  type WatchedPage,
} from "../../web/harness";

/**
 * A curator's day in the web application, in Debian's Chromium against the embedded platform: every
 * test leaves a screenshot of where it ended under e2e/test-output/web/, and every page it visits
 * passes axe with no serious or critical violation.
 */
describe.runIf(chromiumAvailable())("the web application, as a curator uses it", () => {
  let platform: Target;
  let browser: Browser;
  let context: BrowserContext;
  let watched: WatchedPage;
  let page: Page;
  const api = () => client(platform.baseUrl, platform.ownerKey);

  beforeAll(async () => {
    platform = await startEmbedded();
    browser = await launchChromium();
    watched = await openPage(browser, platform.baseUrl);
    ({ context, page } = watched);
  });
  afterAll(async () => {
    await browser?.close();
    await platform?.stop();
  });
  beforeEach(() => {
    watched.problems.length = 0;
  });

  /** Nothing went wrong that a person would not see: no CSP violation, no uncaught error. */
  const expectNoProblems = () =>
    expect(watched.problems.filter((p) => !/status of (401|412)/.test(p))).toEqual([]);

  it("signs the person who started the platform in with the link it printed, once", async () => {
    // Printed after the server listens, so it may follow /readyz's first 200 by a moment.
    const link = await waitFor("the sign-in link", async () => {
      const transcript = platform.processes[0]?.transcript.join("") ?? "";
      return /open (http:\/\/\S+\/sign-in#code=\S+) to sign in/.exec(transcript)?.[1];
    });
    expect(link).toBeDefined();
    const visitor = await openPage(browser, platform.baseUrl);
    await visitor.page.goto(link ?? "");
    await visitor.page.waitForURL(/\/projects$/);
    await visitor.page.getByText("No projects yet.").waitFor();
    // The code left the address bar at once, and the session stays on the next page load.
    expect(visitor.page.url()).not.toContain("code=");
    await visitor.page.reload();
    await visitor.page.getByText("No projects yet.").waitFor();
    await screenshot(visitor.page, "signed-in-by-link");
    await visitor.context.close();

    const second = await browser.newContext();
    const again = await second.newPage();
    await again.goto(link ?? "");
    await again.getByText(/This sign-in link is not valid: it works once/).waitFor();
    await second.close();
  });

  it("sends a signed-out visitor to sign in, and back to the page they asked for", async () => {
    await page.goto(`${platform.baseUrl}/settings/account`);
    await page.waitForURL(/\/sign-in\?next=%2Fsettings%2Faccount$/);
    await expectAccessible(page, "the sign-in page");
    await page.getByLabel("API key").fill("svc_not-a-real-key-at-all");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect
      .poll(() => page.getByRole("alert").textContent())
      .toContain("The API key is not valid; it may have been revoked");
    await expect.poll(() => page.getByRole("alert").textContent()).toMatch(/Request id \S+/);

    await page.getByLabel("API key").fill(platform.ownerKey);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL(/\/settings\/account$/);
    await page.getByText("default", { exact: true }).first().waitFor();
    // The key is in no storage JavaScript can read, and the session cookie is HttpOnly.
    const stored = await page.evaluate<string>(
      "JSON.stringify({ ...localStorage, ...sessionStorage }) + document.cookie",
    );
    expect(stored).not.toContain("svc_");
    const cookies = await context.cookies();
    expect(cookies).toEqual([
      expect.objectContaining({ name: "svc_session", httpOnly: true, sameSite: "Lax", secure: false }),
    ]);
    await expectAccessible(page, "the account page");
    await screenshot(page, "signed-in");
    expectNoProblems();
  });

  it("creates a project and a dataset, and finds them by name", async () => {
    await page.goto(`${platform.baseUrl}/projects`);
    await page.getByRole("button", { name: "New project" }).click();
    await page.getByLabel("Name", { exact: true }).fill("Support bot");
    await page.getByRole("button", { name: "Create project" }).click();
    await page.getByRole("link", { name: /Support bot/ }).waitFor();
    await expectAccessible(page, "the projects page");
    await page.getByRole("searchbox", { name: "Search projects by name" }).fill("nothing like it");
    await page.getByText("No project matches").waitFor();
    await page.getByRole("searchbox", { name: "Search projects by name" }).fill("support");
    await page.getByRole("link", { name: /Support bot/ }).click();
    await page.waitForURL(/\/projects\/support-bot$/);

    await page.getByRole("button", { name: "New dataset" }).click();
    await page.getByLabel("Name", { exact: true }).fill("Golden answers");
    await page.getByRole("button", { name: "Create dataset" }).click();
    await page.getByRole("link", { name: /Golden answers/ }).waitFor();
    await expectAccessible(page, "the datasets page");
    await screenshot(page, "datasets");
    expect((await api().get("/v1/projects/support-bot/datasets/golden-answers")).status).toBe(200);
    expectNoProblems();
  });

  it("adds a column, then a row, and shows the version each change made", async () => {
    await page.goto(`${platform.baseUrl}/projects/support-bot/datasets/golden-answers`);
    await page.getByText("This dataset has no rows yet.").waitFor();
    await expectAccessible(page, "an empty dataset");
    await page.getByRole("button", { name: "Columns" }).click();
    await page.getByLabel("New column").fill("difficulty");
    await page.getByRole("button", { name: "Add column" }).click();
    await page.getByText("Added column difficulty").waitFor();
    await expectAccessible(page, "the columns dialog");
    await page.getByRole("button", { name: "Done" }).click();

    await page.getByRole("button", { name: "Add row" }).first().click();
    await page.getByLabel("Row id (optional; one is generated)").fill("q1");
    const dialog = page.getByRole("dialog");
    await replaceText(page, "New row Input", '{"question": "2+2?"}', dialog);
    await replaceText(page, "New row Output", '"5"', dialog);
    await replaceText(page, "New row difficulty", '"easy"', dialog);
    await dialog.getByRole("button", { name: "Add row" }).click();
    await page.getByText("Added row q1 as version 1").waitFor();
    await page.getByRole("grid", { name: "Dataset rows" }).getByText("q1").waitFor();
    const row = await api().get<{ input: unknown; output: unknown; custom: Record<string, unknown> }>(
      "/v1/projects/support-bot/datasets/golden-answers/rows/q1",
    );
    expect(row.body).toMatchObject({ input: { question: "2+2?" }, output: "5" });
    expect(Object.values(row.body.custom)).toEqual(["easy"]);
    await screenshot(page, "row-added");
    expectNoProblems();
  });

  it("edits one cell with If-Match, sends only that cell, and keeps the others", async () => {
    await page.goto(`${platform.baseUrl}/projects/support-bot/datasets/golden-answers?row=q1`);
    const panel = page.getByRole("complementary", { name: "Row q1" });
    await panel.waitFor();
    await expectAccessible(page, "the row editor");
    const patches: { body: unknown; ifMatch: string | undefined }[] = [];
    page.on("request", (request) => {
      if (request.method() === "PATCH") {
        patches.push({ body: request.postDataJSON(), ifMatch: request.headers()["if-match"] });
      }
    });
    // Invalid JSON is refused before anything is sent, with where it went wrong.
    await replaceText(page, "Expected output", '{"answer": 4');
    await panel.getByText(/Not valid JSON at line 1, column \d+/).waitFor();
    expect(await panel.getByRole("button", { name: "Save" }).isDisabled()).toBe(true);

    await replaceText(page, "Expected output", '{"answer": "4"}');
    await panel.getByText("1 changed cell").waitFor();
    await page.keyboard.press("Control+s");
    await page.getByText("Saved row q1 as version 2").waitFor();
    await expect.poll(() => page.locator(".version-chip").textContent()).toMatch(/^Version\s*2$/);

    expect(patches).toEqual([{ body: { expectedOutput: { answer: "4" } }, ifMatch: "1" }]);
    const row = await api().get<{ input: unknown; output: unknown; expectedOutput: unknown; custom: object }>(
      "/v1/projects/support-bot/datasets/golden-answers/rows/q1",
    );
    expect(row.body).toMatchObject({
      input: { question: "2+2?" },
      output: "5",
      expectedOutput: { answer: "4" },
    });
    expect(Object.values(row.body.custom)).toEqual(["easy"]);
    await screenshot(page, "row-edited");
    expectNoProblems();
  });

  it("shows the conflict when someone else changed the row meanwhile, and keeps mine on request", async () => {
    await page.goto(`${platform.baseUrl}/projects/support-bot/datasets/golden-answers?row=q1`);
    const panel = page.getByRole("complementary", { name: "Row q1" });
    await panel.waitFor();
    await replaceText(page, "Output", '"four"');
    // A second client edits the same row before this one saves.
    const theirs = await api().patch<{ version: number }>(
      "/v1/projects/support-bot/datasets/golden-answers/rows/q1",
      {
        output: "4 (theirs)",
      },
    );
    expect(theirs.status).toBe(200);

    await panel.getByRole("button", { name: "Save" }).click();
    const conflict = page.getByRole("alertdialog", { name: "Someone else changed this row" });
    await conflict.waitFor();
    await conflict.getByText(`It is now at version ${theirs.body.version}`).waitFor();
    await conflict.getByText('"4 (theirs)"').or(conflict.getByText("4 (theirs)")).first().waitFor();
    await expectAccessible(page, "the conflict view");
    await screenshot(page, "conflict");
    await conflict.getByRole("button", { name: "Keep mine" }).click();
    await page.getByText(`Saved row q1 as version ${theirs.body.version + 1}`).waitFor();
    const row = await api().get<{ output: unknown }>(
      "/v1/projects/support-bot/datasets/golden-answers/rows/q1",
    );
    expect(row.body.output).toBe("four");
    expectNoProblems();
  });

  it("removes a column with undo, and restores a removed one", async () => {
    await page.goto(`${platform.baseUrl}/projects/support-bot/datasets/golden-answers`);
    await page.getByRole("button", { name: "Columns" }).click();
    await page.getByRole("button", { name: "Remove difficulty" }).click();
    await page.getByText("Removed difficulty; its data is kept.").waitFor();
    await page.getByRole("button", { name: "Undo" }).click();
    await page.getByText("Restored difficulty").waitFor();
    await page.getByRole("button", { name: "Remove difficulty" }).waitFor();

    await page.getByRole("button", { name: "Remove difficulty" }).click();
    await page.getByLabel(/Show removed columns/).check();
    await page.getByRole("list", { name: "Removed columns" }).getByText("difficulty").waitFor();
    await screenshot(page, "column-removed");
    await page.getByRole("button", { name: "Restore difficulty" }).click();
    await page.getByText("Restored difficulty").first().waitFor();
    const columns = await api().get<{ columns: { name: string }[] }>(
      "/v1/projects/support-bot/datasets/golden-answers/columns",
    );
    expect(columns.body.columns.map((c) => c.name)).toContain("difficulty");
    const row = await api().get<{ custom: object }>(
      "/v1/projects/support-bot/datasets/golden-answers/rows/q1",
    );
    expect(Object.values(row.body.custom)).toEqual(["easy"]);
    await page.getByRole("button", { name: "Done" }).click();
    expectNoProblems();
  });

  it("moves between rows with J and K and opens the editor with Enter", async () => {
    const rows = Array.from({ length: 30 }, (_, i) => ({ id: `k${String(i).padStart(2, "0")}`, input: i }));
    await api().post("/v1/projects/support-bot/datasets/golden-answers/rows", { rows });
    await page.goto(`${platform.baseUrl}/projects/support-bot/datasets/golden-answers`);
    const grid = page.getByRole("grid", { name: "Dataset rows" });
    await grid.getByText("k29").waitFor();
    await grid.focus();
    await page.keyboard.press("j");
    await page.keyboard.press("j");
    await page.keyboard.press("k");
    await page.keyboard.press("j");
    await expect.poll(() => new URL(page.url()).searchParams.get("row")).toBe("k28");
    await page.keyboard.press("Enter");
    await page.getByRole("complementary", { name: "Row k28" }).waitFor();
    // Enter put the cursor in the row's first cell editor.
    await expect
      .poll(() => page.evaluate<string>("document.activeElement?.getAttribute('aria-label') ?? ''"))
      .toBe("Input");
    await page.keyboard.press("Escape");
    await expect.poll(() => new URL(page.url()).searchParams.get("row")).toBe(null);
    await screenshot(page, "keyboard");
    expectNoProblems();
  });

  it("shows only the rows missing an expected output with one click", async () => {
    await page.goto(`${platform.baseUrl}/projects/support-bot/datasets/golden-answers`);
    // q1 has an expected output; the thirty k rows do not.
    await page.getByText("31 rows", { exact: true }).waitFor();
    await page.getByRole("button", { name: "Missing expected output" }).click();
    await page.getByText("30 rows match").waitFor();
    expect(
      await page.getByRole("button", { name: "Missing expected output" }).getAttribute("aria-pressed"),
    ).toBe("true");
    await page.getByRole("button", { name: /Sort by creation time/ }).click();
    await page.getByRole("grid", { name: "Dataset rows" }).getByText("k00", { exact: true }).waitFor();
    await screenshot(page, "missing-expected-output");
    expectNoProblems();
  });

  it("creates a key shown once, and its revocation ends a session opened with it", async () => {
    await page.goto(`${platform.baseUrl}/settings/keys`);
    await page.getByRole("button", { name: "New API key" }).click();
    await page.getByLabel("Name", { exact: true }).fill("Reviewer");
    await page.getByLabel("Role").selectOption("member");
    await page.getByRole("button", { name: "Create key" }).click();
    const token = (await page.getByLabel("New API key token").textContent()) ?? "";
    expect(token).toMatch(/^svc_/);
    await expectAccessible(page, "the new key dialog");
    await page.getByRole("button", { name: "Done" }).click();
    await expectAccessible(page, "the keys page");

    // The reviewer signs in with it in a browser of their own.
    const { context: reviewerContext, page: reviewer } = await openPage(browser, platform.baseUrl);
    await signIn(reviewer, platform.baseUrl, token);
    await reviewer.getByRole("link", { name: /Support bot/ }).waitFor();

    await page.getByRole("button", { name: "Revoke Reviewer" }).click();
    await page.getByRole("button", { name: "Revoke key" }).click();
    await page.getByText("Revoked Reviewer").waitFor();
    const revokedAt = Date.now();
    await reviewer.reload();
    await reviewer.waitForURL(/\/sign-in/);
    expect(Date.now() - revokedAt).toBeLessThan(5_000);
    await screenshot(reviewer, "revoked-session");
    await reviewerContext.close();
    await screenshot(page, "keys");
    expectNoProblems();
  });

  it("refuses a write from the page without the CSRF token, and one from another origin", async () => {
    const status = await page.evaluate(async () => {
      const response = await fetch("/v1/projects", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ name: "forged" }),
      });
      return { status: response.status, body: await response.json() };
    });
    expect(status).toMatchObject({ status: 403, body: { code: "forbidden", details: { reason: "csrf" } } });
    const cookie = (await context.cookies()).map((c) => `${c.name}=${c.value}`).join("; ");
    const crossSite = await fetch(`${platform.baseUrl}/v1/projects`, {
      method: "POST",
      headers: {
        cookie,
        origin: "https://evil.example",
        "content-type": "application/json",
        "x-csrf-token": "x",
      },
      body: JSON.stringify({ name: "forged" }),
    });
    expect(crossSite.status).toBe(403);
    const projects = await api().get<{ items: { name: string }[] }>("/v1/projects");
    expect(projects.body.items.map((p) => p.name)).not.toContain("forged");
  });

  it("signs out, and the old cookie no longer works", async () => {
    const cookie = (await context.cookies()).map((c) => `${c.name}=${c.value}`).join("; ");
    await page.goto(`${platform.baseUrl}/projects`);
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.waitForURL(/\/sign-in/);
    await page.getByText("You have signed out.").waitFor();
    expect(await context.cookies()).toEqual([]);
    const replay = await fetch(`${platform.baseUrl}/v1/projects`, { headers: { cookie } });
    expect(replay.status).toBe(401);
    await screenshot(page, "signed-out");
    expectNoProblems();
  });
});

describe.runIf(chromiumAvailable() && realInfra())("the web application on the distributed platform", () => {
  let platform: Platform;
  let browser: Browser;

  beforeAll(async () => {
    platform = await startPlatform({ gatewayEnv: { SVC_AUTH_CACHE_MS: "5000" } });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await platform?.stop();
  });

  it("signs in through a gateway, and a revoked key's session ends at once", async () => {
    const owner = client(platform.baseUrl, platform.ownerKey);
    const key = await owner.post<{ id: string; token: string }>("/v1/api-keys", {
      name: "Curator",
      role: "member",
    });
    const { context, page, problems } = await openPage(browser, platform.baseUrl);
    await page.goto(`${platform.baseUrl}/projects`);
    await page.getByLabel("API key").fill(key.body.token);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL(/\/projects$/);
    await page.getByText("No projects yet.").waitFor();
    await expectAccessible(page, "the projects page, distributed");

    expect((await owner.delete(`/v1/api-keys/${key.body.id}`)).status).toBe(204);
    await page.reload();
    await page.waitForURL(/\/sign-in/);
    await page.getByLabel("API key").waitFor();
    await screenshot(page, "distributed-revoked");
    expect(problems.filter((p) => !/status of 401/.test(p))).toEqual([]);
    await context.close();
  });
});
