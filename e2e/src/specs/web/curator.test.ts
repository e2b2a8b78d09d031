import { realInfra } from "@svc/testing";
import { describe, expect, it } from "vitest";
import { client } from "../../http";
import { startedForSuite, startPlatform, waitFor } from "../../platform";
import { startEmbedded } from "../../targets";
import {
  chromiumAvailable,
  chromiumForSuite,
  expectAccessible,
  openPage,
  openSignedInPage,
  replaceText,
  screenshot,
  watchedPageForSuite,
} from "../../web/harness";

/**
 * A curator's day in the web application, in Debian's Chromium against the embedded platform: every
 * test leaves a screenshot of where it ended under e2e/test-output/web/, and every page it visits
 * passes axe with no serious or critical violation.
 */
describe.runIf(chromiumAvailable())("the web application, as a curator uses it", () => {
  const platform = startedForSuite(() => startEmbedded());
  const watched = watchedPageForSuite(() => platform.baseUrl);
  const api = () => client(platform.baseUrl, platform.ownerKey);

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
    const visitor = await openPage(watched.browser, platform.baseUrl);
    await visitor.page.goto(link ?? "");
    await visitor.page.waitForURL(/\/projects$/);
    await visitor.page.getByText("No projects yet.").waitFor();
    // The code left the address bar at once, and the session stays on the next page load.
    expect(visitor.page.url()).not.toContain("code=");
    await visitor.page.reload();
    await visitor.page.getByText("No projects yet.").waitFor();
    await screenshot(visitor.page, "signed-in-by-link");
    await visitor.context.close();

    const second = await watched.browser.newContext();
    const again = await second.newPage();
    await again.goto(link ?? "");
    await again.getByText(/This sign-in link does not work: it has been used already/).waitFor();
    await second.close();
  });

  it("sends a signed-out visitor to sign in, and back to the page they asked for", async () => {
    await watched.page.goto(`${platform.baseUrl}/settings/account`);
    await watched.page.waitForURL(/\/sign-in\?next=%2Fsettings%2Faccount$/);
    await expectAccessible(watched.page, "the sign-in page");
    await watched.page.getByLabel("API key").fill("svc_not-a-real-key-at-all");
    await watched.page.getByRole("button", { name: "Sign in" }).click();
    await expect
      .poll(() => watched.page.getByRole("alert").textContent())
      .toContain("The API key is not valid; it may have been revoked");
    await expect.poll(() => watched.page.getByRole("alert").textContent()).toMatch(/Request id \S+/);

    await watched.page.getByLabel("API key").fill(platform.ownerKey);
    await watched.page.getByRole("button", { name: "Sign in" }).click();
    await watched.page.waitForURL(/\/settings\/account$/);
    await watched.page.getByText("default", { exact: true }).first().waitFor();
    // The key is in no storage JavaScript can read, and the session cookie is HttpOnly.
    const stored = await watched.page.evaluate<string>(
      "JSON.stringify({ ...localStorage, ...sessionStorage }) + document.cookie",
    );
    expect(stored).not.toContain("svc_");
    const cookies = await watched.context.cookies();
    expect(cookies).toEqual([
      expect.objectContaining({ name: "svc_session", httpOnly: true, sameSite: "Lax", secure: false }),
    ]);
    await expectAccessible(watched.page, "the account page");
    await screenshot(watched.page, "signed-in");
    expectNoProblems();
  });

  it("creates a project and a dataset, and finds them by name", async () => {
    await watched.page.goto(`${platform.baseUrl}/projects`);
    await watched.page.getByRole("button", { name: "New project" }).click();
    await watched.page.getByLabel("Name", { exact: true }).fill("Support bot");
    await watched.page.getByRole("button", { name: "Create project" }).click();
    await watched.page.getByRole("link", { name: /Support bot/ }).waitFor();
    await expectAccessible(watched.page, "the projects page");
    await watched.page.getByRole("searchbox", { name: "Search projects by name" }).fill("nothing like it");
    await watched.page.getByText("No project matches").waitFor();
    await watched.page.getByRole("searchbox", { name: "Search projects by name" }).fill("support");
    await watched.page.getByRole("link", { name: /Support bot/ }).click();
    await watched.page.waitForURL(/\/projects\/support-bot$/);

    await watched.page.getByRole("button", { name: "New dataset" }).click();
    await watched.page.getByLabel("Name", { exact: true }).fill("Golden answers");
    await watched.page.getByRole("button", { name: "Create dataset" }).click();
    await watched.page.getByRole("link", { name: /Golden answers/ }).waitFor();
    await expectAccessible(watched.page, "the datasets page");
    await screenshot(watched.page, "datasets");
    expect((await api().get("/v1/projects/support-bot/datasets/golden-answers")).status).toBe(200);
    expectNoProblems();
  });

  it("adds a column, then a row, and shows the version each change made", async () => {
    await watched.page.goto(`${platform.baseUrl}/projects/support-bot/datasets/golden-answers`);
    await watched.page.getByText("This dataset has no rows yet.").waitFor();
    await expectAccessible(watched.page, "an empty dataset");
    await watched.page.getByRole("button", { name: "Columns" }).click();
    await watched.page.getByLabel("New column").fill("difficulty");
    await watched.page.getByRole("button", { name: "Add column" }).click();
    await watched.page.getByText("Added column difficulty").waitFor();
    await expectAccessible(watched.page, "the columns dialog");
    await watched.page.getByRole("button", { name: "Done" }).click();

    await watched.page.getByRole("button", { name: "Add row" }).first().click();
    await watched.page.getByLabel("Row id (optional; one is generated)").fill("q1");
    const dialog = watched.page.getByRole("dialog");
    await replaceText(watched.page, "New row Input", '{"question": "2+2?"}', dialog);
    await replaceText(watched.page, "New row Output", '"5"', dialog);
    await replaceText(watched.page, "New row difficulty", '"easy"', dialog);
    await dialog.getByRole("button", { name: "Add row" }).click();
    await watched.page.getByText("Added row q1 as version 1").waitFor();
    await watched.page.getByRole("grid", { name: "Dataset rows" }).getByText("q1").waitFor();
    const row = await api().get<{ input: unknown; output: unknown; custom: Record<string, unknown> }>(
      "/v1/projects/support-bot/datasets/golden-answers/rows/q1",
    );
    expect(row.body).toMatchObject({ input: { question: "2+2?" }, output: "5" });
    expect(Object.values(row.body.custom)).toEqual(["easy"]);
    await screenshot(watched.page, "row-added");
    expectNoProblems();
  });

  it("edits one cell with If-Match, sends only that cell, and keeps the others", async () => {
    await watched.page.goto(`${platform.baseUrl}/projects/support-bot/datasets/golden-answers?row=q1`);
    const panel = watched.page.getByRole("complementary", { name: "Row q1" });
    await panel.waitFor();
    await expectAccessible(watched.page, "the row editor");
    const patches: { body: unknown; ifMatch: string | undefined }[] = [];
    watched.page.on("request", (request) => {
      if (request.method() === "PATCH") {
        patches.push({ body: request.postDataJSON(), ifMatch: request.headers()["if-match"] });
      }
    });
    // An empty cell starts as text: JSON is chosen explicitly. Invalid JSON is refused before anything
    // is sent, with where it went wrong.
    await panel.getByRole("radiogroup", { name: "Edit Expected output as" }).getByLabel("JSON").check();
    await replaceText(watched.page, "Expected output", '{"answer": 4');
    await panel.getByText(/Not valid JSON at line 1, column \d+/).waitFor();
    expect(await panel.getByRole("button", { name: "Save" }).isDisabled()).toBe(true);

    await replaceText(watched.page, "Expected output", '{"answer": "4"}');
    await panel.getByText("1 changed cell").waitFor();
    await watched.page.keyboard.press("Control+s");
    await watched.page.getByText("Saved row q1 as version 2").waitFor();
    await expect.poll(() => watched.page.locator(".version-chip").textContent()).toMatch(/^Version\s*2$/);

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
    await screenshot(watched.page, "row-edited");
    expectNoProblems();
  });

  it("shows the conflict when someone else changed the row meanwhile, and keeps mine on request", async () => {
    await watched.page.goto(`${platform.baseUrl}/projects/support-bot/datasets/golden-answers?row=q1`);
    const panel = watched.page.getByRole("complementary", { name: "Row q1" });
    await panel.waitFor();
    await replaceText(watched.page, "Output", "four");
    // A second client edits the same row before this one saves.
    const theirs = await api().patch<{ version: number }>(
      "/v1/projects/support-bot/datasets/golden-answers/rows/q1",
      {
        output: "4 (theirs)",
      },
    );
    expect(theirs.status).toBe(200);

    await panel.getByRole("button", { name: "Save" }).click();
    const conflict = watched.page.getByRole("alertdialog", { name: "Someone else changed this row" });
    await conflict.waitFor();
    await conflict.getByText(`It is now at version ${theirs.body.version}`).waitFor();
    await conflict.getByText('"4 (theirs)"').or(conflict.getByText("4 (theirs)")).first().waitFor();
    await expectAccessible(watched.page, "the conflict view");
    await screenshot(watched.page, "conflict");
    await conflict.getByRole("button", { name: "Keep mine" }).click();
    await watched.page.getByText(`Saved row q1 as version ${theirs.body.version + 1}`).waitFor();
    const row = await api().get<{ output: unknown }>(
      "/v1/projects/support-bot/datasets/golden-answers/rows/q1",
    );
    expect(row.body.output).toBe("four");
    expectNoProblems();
  });

  it("removes a column with undo, and restores a removed one", async () => {
    await watched.page.goto(`${platform.baseUrl}/projects/support-bot/datasets/golden-answers`);
    await watched.page.getByRole("button", { name: "Columns" }).click();
    await watched.page.getByRole("button", { name: "Remove difficulty" }).click();
    await watched.page.getByText("Removed difficulty; its data is kept.").waitFor();
    await watched.page.getByRole("button", { name: "Undo" }).click();
    await watched.page.getByText("Restored difficulty").waitFor();
    await watched.page.getByRole("button", { name: "Remove difficulty" }).waitFor();

    await watched.page.getByRole("button", { name: "Remove difficulty" }).click();
    await watched.page.getByLabel(/Show removed columns/).check();
    await watched.page.getByRole("list", { name: "Removed columns" }).getByText("difficulty").waitFor();
    await screenshot(watched.page, "column-removed");
    await watched.page.getByRole("button", { name: "Restore difficulty" }).click();
    await watched.page.getByText("Restored difficulty").first().waitFor();
    const columns = await api().get<{ columns: { name: string }[] }>(
      "/v1/projects/support-bot/datasets/golden-answers/columns",
    );
    expect(columns.body.columns.map((c) => c.name)).toContain("difficulty");
    const row = await api().get<{ custom: object }>(
      "/v1/projects/support-bot/datasets/golden-answers/rows/q1",
    );
    expect(Object.values(row.body.custom)).toEqual(["easy"]);
    await watched.page.getByRole("button", { name: "Done" }).click();
    expectNoProblems();
  });

  it("moves between rows with J and K and opens the editor with Enter", async () => {
    const rows = Array.from({ length: 30 }, (_, i) => ({ id: `k${String(i).padStart(2, "0")}`, input: i }));
    await api().post("/v1/projects/support-bot/datasets/golden-answers/rows", { rows });
    await watched.page.goto(`${platform.baseUrl}/projects/support-bot/datasets/golden-answers`);
    const grid = watched.page.getByRole("grid", { name: "Dataset rows" });
    await grid.getByText("k29").waitFor();
    await grid.focus();
    await watched.page.keyboard.press("j");
    await watched.page.keyboard.press("j");
    await watched.page.keyboard.press("k");
    await watched.page.keyboard.press("j");
    await expect.poll(() => new URL(watched.page.url()).searchParams.get("row")).toBe("k28");
    await watched.page.keyboard.press("Enter");
    await watched.page.getByRole("complementary", { name: "Row k28" }).waitFor();
    // Enter put the cursor in the row's first cell editor.
    await expect
      .poll(() => watched.page.evaluate<string>("document.activeElement?.getAttribute('aria-label') ?? ''"))
      .toBe("Input");
    await watched.page.keyboard.press("Escape");
    await expect.poll(() => new URL(watched.page.url()).searchParams.get("row")).toBe(null);
    await screenshot(watched.page, "keyboard");
    expectNoProblems();
  });

  it("shows only the rows missing an expected output with one click", async () => {
    await watched.page.goto(`${platform.baseUrl}/projects/support-bot/datasets/golden-answers`);
    // q1 has an expected output; the thirty k rows do not.
    await watched.page.getByText("31 rows", { exact: true }).waitFor();
    await watched.page.getByRole("button", { name: "Missing expected output" }).click();
    await watched.page.getByText("30 rows match").waitFor();
    expect(
      await watched.page
        .getByRole("button", { name: "Missing expected output" })
        .getAttribute("aria-pressed"),
    ).toBe("true");
    await watched.page.getByRole("button", { name: /Sort by creation time/ }).click();
    await watched.page
      .getByRole("grid", { name: "Dataset rows" })
      .getByText("k00", { exact: true })
      .waitFor();
    await screenshot(watched.page, "missing-expected-output");
    expectNoProblems();
  });

  it("creates a key shown once, and its revocation ends a session opened with it", async () => {
    await watched.page.goto(`${platform.baseUrl}/settings/keys`);
    await watched.page.getByRole("button", { name: "New API key" }).click();
    await watched.page.getByLabel("Name", { exact: true }).fill("Reviewer");
    await watched.page.getByLabel("Role").selectOption("member");
    await watched.page.getByRole("button", { name: "Create key" }).click();
    const token = (await watched.page.getByLabel("New API key token").textContent()) ?? "";
    expect(token).toMatch(/^svc_/);
    await expectAccessible(watched.page, "the new key dialog");
    await watched.page.getByRole("button", { name: "Done" }).click();
    await expectAccessible(watched.page, "the keys page");

    // The reviewer signs in with it in a browser of their own.
    const { context: reviewerContext, page: reviewer } = await openSignedInPage(
      watched.browser,
      platform.baseUrl,
      token,
    );
    await reviewer.getByRole("link", { name: /Support bot/ }).waitFor();

    await watched.page.getByRole("button", { name: "Revoke Reviewer" }).click();
    await watched.page.getByRole("button", { name: "Revoke key" }).click();
    await watched.page.getByText("Revoked Reviewer").waitFor();
    const revokedAt = Date.now();
    await reviewer.reload();
    await reviewer.waitForURL(/\/sign-in/);
    expect(Date.now() - revokedAt).toBeLessThan(5_000);
    await screenshot(reviewer, "revoked-session");
    await reviewerContext.close();
    await screenshot(watched.page, "keys");
    expectNoProblems();
  });

  it("refuses a write from the page without the CSRF token, and one from another origin", async () => {
    const status = await watched.page.evaluate(async () => {
      const response = await fetch("/v1/projects", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ name: "forged" }),
      });
      return { status: response.status, body: await response.json() };
    });
    expect(status).toMatchObject({ status: 403, body: { code: "forbidden", details: { reason: "csrf" } } });
    const cookie = (await watched.context.cookies()).map((c) => `${c.name}=${c.value}`).join("; ");
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
    const cookie = (await watched.context.cookies()).map((c) => `${c.name}=${c.value}`).join("; ");
    await watched.page.goto(`${platform.baseUrl}/projects`);
    await watched.page.getByRole("button", { name: "Sign out" }).click();
    await watched.page.waitForURL(/\/sign-in/);
    await watched.page.getByText("You have signed out.").waitFor();
    expect(await watched.context.cookies()).toEqual([]);
    const replay = await fetch(`${platform.baseUrl}/v1/projects`, { headers: { cookie } });
    expect(replay.status).toBe(401);
    await screenshot(watched.page, "signed-out");
    expectNoProblems();
  });
});

describe.runIf(chromiumAvailable() && realInfra())("the web application on the distributed platform", () => {
  const platform = startedForSuite(() => startPlatform({ gatewayEnv: { SVC_AUTH_CACHE_MS: "5000" } }));
  const chromium = chromiumForSuite();

  it("signs in through a gateway, and a revoked key's session ends at once", async () => {
    const owner = client(platform.baseUrl, platform.ownerKey);
    const key = await owner.post<{ id: string; token: string }>("/v1/api-keys", {
      name: "Curator",
      role: "member",
    });
    const { context, page, problems } = await openPage(chromium.browser, platform.baseUrl);
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
