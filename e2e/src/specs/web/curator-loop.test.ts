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
  watchedPageForSuite,
} from "../../web/harness";

/**
 * A curator's working loop in Debian's Chromium against the embedded platform: moving through the rows
 * a view leaves to do, with every unsaved edit in sight and never lost by leaving.
 */
describe.runIf(chromiumAvailable())("the curator's loop in the web application", () => {
  const platform = startedForSuite(() => startEmbedded());
  const watched = watchedPageForSuite(() => platform.baseUrl);
  const api = () => client(platform.baseUrl, platform.ownerKey);
  const dataset = "/v1/projects/loop/datasets/answers";
  const at = (query = "") => `${platform.baseUrl}/projects/loop/datasets/answers${query}`;
  const grid = () => watched.page.getByRole("grid", { name: "Dataset rows" });
  const selectedRow = () => new URL(watched.page.url()).searchParams.get("row");

  beforeAll(async () => {
    expect((await api().post("/v1/projects", { name: "Loop" })).status).toBe(201);
    expect((await api().post("/v1/projects/loop/datasets", { name: "Answers" })).status).toBe(201);
    const rows = Array.from({ length: 8 }, (_, i) => ({ id: `m${i}`, input: { q: i }, output: `out ${i}` }));
    expect((await api().post(`${dataset}/rows`, { rows })).status).toBe(201);
    await signIn(watched.page, platform.baseUrl, platform.ownerKey);
  });
  afterEach(async ({ task }) => {
    if (task.result?.state === "fail") await screenshot(watched.page, `failed ${task.name}`.slice(0, 60));
  });
  const expectNoProblems = () =>
    expect(watched.problems.filter((p) => !/status of (401|412)/.test(p))).toEqual([]);

  it("goes with J from a row just saved out of the view to the row that followed it", async () => {
    await watched.page.goto(at("?missing=expectedOutput&sort=asc"));
    await grid().getByText("m7", { exact: true }).waitFor();
    await grid().focus();
    await watched.page.keyboard.press("j");
    await watched.page.keyboard.press("j");
    await watched.page.keyboard.press("j");
    await expect.poll(selectedRow).toBe("m2");
    await watched.page.keyboard.press("Enter");
    const panel = watched.page.getByRole("complementary", { name: "Row m2" });
    await panel.waitFor();
    await replaceText(watched.page, "Expected output", "answer 2");
    await watched.page.keyboard.press("Control+s");
    await watched.page.getByText("Saved row m2 as version 2").waitFor();
    // It has an expected output now: the view no longer lists it.
    await expect.poll(() => grid().getByText("m2", { exact: true }).count()).toBe(0);
    await watched.page.keyboard.press("Escape");
    await expect.poll(selectedRow).toBe(null);

    await watched.page.keyboard.press("j");
    await expect.poll(selectedRow).toBe("m3");
    await watched.page.keyboard.press("j");
    await expect.poll(selectedRow).toBe("m4");
    await watched.page.keyboard.press("k");
    await expect.poll(selectedRow).toBe("m3");
    await expectAccessible(watched.page, "the missing expected output view after a save");
    await screenshot(watched.page, "next-after-save");
    expectNoProblems();
  });

  it("asks before leaving with unsaved edits, by a link in the application and by leaving the page", async () => {
    await watched.page.goto(at());
    const bar = watched.page.getByRole("region", { name: "Unsaved edits" });
    // Moving within the page (another row) does not ask.
    await grid().getByText("m1", { exact: true }).click();
    await grid().getByText("m0", { exact: true }).click();
    await watched.page.getByRole("complementary", { name: "Row m0" }).waitFor();
    await replaceText(watched.page, "Expected output", "kept");
    await bar.getByText("1 unsaved edit in 1 row").waitFor();
    await grid().getByText("m1", { exact: true }).click();
    await watched.page.getByRole("complementary", { name: "Row m1" }).waitFor();

    // A link inside the application: asked, and staying stays.
    const crumb = watched.page.getByRole("navigation", { name: "Breadcrumb" }).getByRole("link", {
      name: "Projects",
    });
    await crumb.click();
    const ask = watched.page.getByRole("dialog", { name: "Leave with unsaved edits?" });
    await ask.getByText(/1 unsaved edit in 1 row stays in this browser/).waitFor();
    await expectAccessible(watched.page, "the question before leaving");
    await screenshot(watched.page, "leave-asks");
    await ask.getByRole("button", { name: "Stay" }).click();
    await expect.poll(() => ask.isVisible()).toBe(false);
    expect(new URL(watched.page.url()).pathname).toBe("/projects/loop/datasets/answers");
    await bar.getByText("1 unsaved edit in 1 row").waitFor();

    // Asked again, leaving leaves; the edit is still there on coming back.
    await crumb.click();
    await ask.getByRole("button", { name: "Leave" }).click();
    await watched.page.waitForURL(/\/projects$/);
    await watched.page.goBack();
    await bar.getByText("1 unsaved edit in 1 row").waitFor();

    // Leaving the page itself: the browser asks.
    const asked: string[] = [];
    watched.page.once("dialog", (dialog) => {
      asked.push(dialog.type());
      void dialog.accept();
    });
    await watched.page.goto(`${platform.baseUrl}/settings/account`);
    expect(asked).toEqual(["beforeunload"]);

    // With nothing unsaved, nothing asks.
    await watched.page.goto(at());
    await bar.getByRole("button", { name: "Discard all" }).click();
    await watched.page.getByRole("button", { name: "Discard edits" }).click();
    await expect.poll(() => bar.count()).toBe(0);
    await crumb.click();
    await watched.page.waitForURL(/\/projects$/);
    expectNoProblems();
  });

  it("makes a new key's role a choice to make, and a new member a member unless chosen otherwise", async () => {
    await watched.page.goto(`${platform.baseUrl}/settings/keys`);
    await watched.page.getByRole("button", { name: "New API key" }).click();
    const dialog = watched.page.getByRole("dialog", { name: "New API key" });
    await dialog.getByLabel("Name", { exact: true }).fill("Nightly eval");
    const role = dialog.getByLabel("Role");
    expect(await role.inputValue()).toBe("");
    await dialog.getByRole("button", { name: "Create key" }).click();
    await dialog
      .getByRole("alert")
      .getByText(/Choose the key's role/)
      .waitFor();
    await expectAccessible(watched.page, "a key without a role");
    await screenshot(watched.page, "key-role-missing");
    const keys = await api().get<{ apiKeys: { name: string }[] }>("/v1/api-keys");
    expect(keys.body.apiKeys.map((key) => key.name)).not.toContain("Nightly eval");

    await role.selectOption("viewer");
    await expect.poll(() => dialog.getByRole("alert").count()).toBe(0);
    await dialog.getByRole("button", { name: "Create key" }).click();
    await watched.page.getByRole("dialog", { name: "Your new API key" }).waitFor();
    await watched.page.getByRole("button", { name: "Done" }).click();
    const created = await api().get<{ apiKeys: { name: string; role: string }[] }>("/v1/api-keys");
    expect(created.body.apiKeys.find((key) => key.name === "Nightly eval")?.role).toBe("viewer");

    await watched.page.goto(`${platform.baseUrl}/settings/members`);
    expect(await watched.page.getByLabel("Role", { exact: true }).inputValue()).toBe("member");
    await watched.page.getByLabel("E-mail", { exact: true }).fill("ada@example.com");
    await screenshot(watched.page, "member-role-default");
    await watched.page.getByRole("button", { name: "Invite", exact: true }).click();
    // No mail is configured here: the invitation's link is shown once, to pass on.
    await watched.page
      .getByRole("status", { name: "Invitation link" })
      .getByText("ada@example.com")
      .first()
      .waitFor();
    const members = await api().get<{ items: { email: string; role: string }[] }>("/v1/members");
    expect(members.body.items.find((member) => member.email === "ada@example.com")?.role).toBe("member");
    await expectAccessible(watched.page, "the members page");
    expectNoProblems();
  });

  it("shows an unsaved cell's draft in the grid, marked as unsaved to the eye and to a screen reader", async () => {
    await watched.page.goto(at());
    await grid().getByText("m5", { exact: true }).click();
    await watched.page.getByRole("complementary", { name: "Row m5" }).waitFor();
    await replaceText(watched.page, "Output", "draft of m5");
    await watched.page.getByRole("complementary", { name: "Row m5" }).getByText("1 changed cell").waitFor();
    await watched.page.getByRole("button", { name: "Close row" }).click();

    const row = grid().getByRole("row").filter({ hasText: "m5" });
    const unsaved = row
      .getByRole("gridcell")
      .filter({ has: watched.page.getByRole("img", { name: "unsaved", exact: true }) });
    await unsaved.getByText("draft of m5").waitFor();
    expect(await unsaved.count()).toBe(1);
    expect(await row.getByText("out 5").count()).toBe(0);
    expect(await row.getByRole("img", { name: "unsaved edits" }).isVisible()).toBe(true);
    expect(await unsaved.getByRole("img", { name: "unsaved", exact: true }).isVisible()).toBe(true);
    // Rows without a draft show what is saved, unmarked.
    const other = grid().getByRole("row").filter({ hasText: "m4" });
    await other.getByText("out 4").waitFor();
    expect(await other.getByRole("img").count()).toBe(0);
    await expectAccessible(watched.page, "the grid with an unsaved cell");
    await screenshot(watched.page, "unsaved-cell-in-grid");

    await watched.page
      .getByRole("region", { name: "Unsaved edits" })
      .getByRole("button", { name: "Discard all" })
      .click();
    await watched.page.getByRole("button", { name: "Discard edits" }).click();
    await row.getByText("out 5").waitFor();
    expectNoProblems();
  });
});
