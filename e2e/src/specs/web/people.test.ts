import { randomBytes } from "node:crypto";
import { harnessForSuite } from "@svc/testing";
import type { Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { client } from "../../http";
import { codesIn, recipientOf, startMailbox } from "../../mailbox";
import { startedForSuite } from "../../platform";
import { startEmbedded } from "../../targets";
import {
  chromiumAvailable,
  chromiumForSuite,
  expectAccessible,
  openPage,
  replaceText,
  screenshot,
  type WatchedPage,
  watchedPageForSuite,
} from "../../web/harness";

/**
 * Two people in two browsers, one invited by the other through Settings → Members with the mail a
 * real SMTP server receives: each signs in with the link in their mail, names themselves, and sees the
 * other's name where the other changed the dataset (the conflict screen, the versions page, the row's
 * history). A used link says so; a removed member's open page is signed out.
 */
describe.runIf(chromiumAvailable())("people in the web application", () => {
  const mailbox = harnessForSuite(async () => {
    const started = await startMailbox();
    return { ...started, close: () => started.close() };
  });
  const platform = startedForSuite(() =>
    startEmbedded({
      SVC_SMTP_URL: `smtp://127.0.0.1:${mailbox.port}`,
      SVC_RATE_LIMIT_EMAIL_PER_HOUR: "2",
      SVC_RATE_LIMIT_EMAIL_CLIENT_PER_HOUR: "1000",
    }),
  );
  const chromium = chromiumForSuite();
  const suffix = randomBytes(3).toString("hex");
  const ann = { email: `ann-${suffix}@example.com`, name: "Ann Lovelace" };
  const bob = { email: `bob-${suffix}@example.com`, name: "Bob Babbage" };
  const dataset = { project: "people", slug: "answers" };
  const datasetUrl = (query = "") =>
    `${platform.baseUrl}/projects/${dataset.project}/datasets/${dataset.slug}${query}`;
  let annKey: string;
  let annBrowser: WatchedPage;
  let bobBrowser: WatchedPage;
  let bobLink: string;
  const pages: WatchedPage[] = [];

  /** The sign-in link of the newest mail to `email`, waiting for it to arrive. */
  async function linkMailedTo(email: string, count = 1): Promise<string> {
    const mails = () => mailbox.messages.filter((message) => recipientOf(message) === email);
    await expect.poll(() => mails().length, { timeout: 10_000 }).toBeGreaterThanOrEqual(count);
    const [code] = codesIn(mails().at(-1) ?? "");
    expect(code).toMatch(/^svc_sc_/);
    return `${platform.baseUrl}/sign-in#code=${code}`;
  }

  async function browserOf(link: string): Promise<WatchedPage> {
    const opened = await openPage(chromium.browser, platform.baseUrl);
    pages.push(opened);
    await opened.page.goto(link);
    await opened.page.waitForURL(/\/projects$/);
    return opened;
  }

  async function nameMyself(page: Page, name: string): Promise<void> {
    await page.goto(`${platform.baseUrl}/settings/account`);
    const form = page.getByRole("form", { name: "You" });
    await form.getByLabel("Name").fill(name);
    await form.getByRole("button", { name: "Save" }).click();
    await page.getByText("Saved your name and e-mail").waitFor();
  }

  beforeAll(async () => {
    // An operator makes the organisation with its first owner's address: the invitation is mailed.
    const created = await fetch(`${platform.baseUrl}/v1/organizations`, {
      method: "POST",
      headers: { authorization: `Bearer ${platform.adminToken}`, "content-type": "application/json" },
      body: JSON.stringify({ name: `People ${suffix}`, ownerEmail: ann.email }),
    });
    expect(created.status, await created.clone().text()).toBe(201);
    annKey = ((await created.json()) as { apiKey: { token: string } }).apiKey.token;
    const api = client(platform.baseUrl, annKey);
    expect((await api.post("/v1/projects", { name: "People" })).status).toBe(201);
    expect((await api.post("/v1/projects/people/datasets", { name: "Answers" })).status).toBe(201);
    const rows = [{ id: "r1", input: { q: "2+2?" }, output: "4" }];
    expect((await api.post("/v1/projects/people/datasets/answers/rows", { rows })).status).toBe(201);
  });
  afterAll(async () => {
    for (const opened of pages) await opened.context.close();
  });
  afterEach(async ({ task }) => {
    if (task.result?.state === "fail") {
      for (const [index, opened] of pages.entries())
        await screenshot(opened.page, `failed ${task.name} ${index}`.slice(0, 60));
    }
  });

  it("lets the owner sign in with the mailed link, name themselves and invite a colleague, who gets the mail", async () => {
    annBrowser = await browserOf(await linkMailedTo(ann.email));
    await nameMyself(annBrowser.page, ann.name);

    const page = annBrowser.page;
    await page.goto(`${platform.baseUrl}/settings/members`);
    const members = page.getByRole("table", { name: "Members" });
    const annRow = members.getByRole("row").filter({ hasText: ann.email });
    await annRow.getByText(`${ann.name} (you)`).waitFor();
    await annRow.getByText("active", { exact: true }).waitFor();
    await expectAccessible(page, "the members page");
    await screenshot(page, "members-page");

    const invite = page.getByRole("form", { name: "Invite a member" });
    await invite.getByLabel("E-mail").fill(bob.email);
    await invite.getByLabel("Role").selectOption("member");
    await invite.getByRole("button", { name: "Invite" }).click();
    await page
      .getByRole("status")
      .filter({ hasText: `Invitation sent to ${bob.email}` })
      .waitFor();
    const bobRow = members.getByRole("row").filter({ hasText: bob.email });
    await bobRow.getByText("invited", { exact: true }).waitFor();
    await expectAccessible(page, "the members page with an invitation sent");
    await screenshot(page, "members-invited");

    // The same address again, and one the platform cannot send to: said in plain words.
    await invite.getByLabel("E-mail").fill(bob.email);
    await invite.getByRole("button", { name: "Invite" }).click();
    await page
      .getByRole("alert")
      .filter({ hasText: `${bob.email} is already a member of this organisation.` })
      .waitFor();
    await invite.getByLabel("E-mail").fill("bob@localhost");
    await invite.getByRole("button", { name: "Invite" }).click();
    await page
      .getByRole("alert")
      .filter({ hasText: "“bob@localhost” is not an e-mail address the platform can send to" })
      .waitFor();
    await screenshot(page, "members-invite-refused");

    bobLink = await linkMailedTo(bob.email);
    expect(annBrowser.problems).toEqual([]);
  });

  it("signs the colleague in with the link in their mail, once: the link opened again says it was used", async () => {
    bobBrowser = await browserOf(bobLink);
    await nameMyself(bobBrowser.page, bob.name);

    // The owner sees the colleague active, by the name they chose.
    await annBrowser.page.reload();
    const bobRow = annBrowser.page
      .getByRole("table", { name: "Members" })
      .getByRole("row")
      .filter({ hasText: bob.email });
    await bobRow.getByText(bob.name).waitFor();
    await bobRow.getByText("active", { exact: true }).waitFor();

    const again = await openPage(chromium.browser, platform.baseUrl);
    pages.push(again);
    await again.page.goto(bobLink);
    await again.page.getByRole("alert").filter({ hasText: "This link was already used" }).waitFor();
    await again.page.getByText(/it has been used already: each link works once/).waitFor();
    expect(again.page.url()).toBe(`${platform.baseUrl}/sign-in`);
    await expectAccessible(again.page, "the sign-in page after a used link");
    await screenshot(again.page, "sign-in-used-link");

    // A member sees who is in the organisation is for owners and admins; their own name is theirs.
    await bobBrowser.page.goto(`${platform.baseUrl}/settings/members`);
    await bobBrowser.page.getByText(/Only owners and admins see and manage the member list/).waitFor();
    expect(await bobBrowser.page.getByRole("form", { name: "Invite a member" }).count()).toBe(0);
    expect([...annBrowser.problems, ...bobBrowser.problems]).toEqual([]);
  });

  it("shows each person the other's name in the conflict screen, the versions page and the row's history", async () => {
    const annPage = annBrowser.page;
    const bobPage = bobBrowser.page;
    const panelOf = (page: Page) => page.getByRole("complementary", { name: "Row r1" });
    await annPage.goto(datasetUrl("?row=r1"));
    await bobPage.goto(datasetUrl("?row=r1"));
    await panelOf(annPage).waitFor();
    await panelOf(bobPage).waitFor();

    // Both edit the same row; Ann saves first, so Bob's save meets her change.
    await replaceText(annPage, "Output", "four, says Ann", panelOf(annPage));
    await replaceText(bobPage, "Output", "four, says Bob", panelOf(bobPage));
    await panelOf(annPage).getByRole("button", { name: "Save" }).click();
    await annPage.getByText(/^Saved row r1 as version \d+$/).waitFor();
    await panelOf(bobPage).getByRole("button", { name: "Save" }).click();
    const bobConflict = bobPage.getByRole("alertdialog", { name: "Someone else changed this row" });
    await bobConflict.getByText(`Changed by ${ann.name}.`, { exact: false }).waitFor();
    await expectAccessible(bobPage, "the conflict screen naming the other person");
    await screenshot(bobPage, "people-conflict-bob");
    await bobConflict.getByRole("button", { name: "Keep mine" }).click();
    await bobPage.getByText(/^Saved row r1 as version \d+$/).waitFor();

    // Ann, now behind, edits again: her conflict names Bob.
    await annPage.goto(datasetUrl("?row=r1"));
    await panelOf(annPage).waitFor();
    await replaceText(annPage, "Expected output", "4", panelOf(annPage));
    await replaceText(bobPage, "Expected output", "four", panelOf(bobPage));
    await panelOf(bobPage).getByRole("button", { name: "Save" }).click();
    await bobPage
      .getByText(/^Saved row r1 as version \d+$/)
      .last()
      .waitFor();
    await panelOf(annPage).getByRole("button", { name: "Save" }).click();
    const annConflict = annPage.getByRole("alertdialog", { name: "Someone else changed this row" });
    await annConflict.getByText(`Changed by ${bob.name}.`, { exact: false }).waitFor();
    await screenshot(annPage, "people-conflict-ann");
    await annConflict.getByRole("button", { name: "Take theirs" }).click();

    // The row's history: each sees the other's name, and "You" for their own changes.
    for (const [page, other] of [
      [annPage, bob.name],
      [bobPage, ann.name],
    ] as const) {
      await page.goto(datasetUrl("?row=r1"));
      const history = page.getByRole("list", { name: "History of row r1" });
      await history.getByText(`by ${other}`).first().waitFor();
      await history.getByText("by You").first().waitFor();
      const text = (await history.textContent()) ?? "";
      expect(text).not.toMatch(/Session |Person /);
    }
    await screenshot(bobPage, "people-row-history");

    // The versions page, likewise.
    for (const [page, other] of [
      [annPage, bob.name],
      [bobPage, ann.name],
    ] as const) {
      await page.goto(datasetUrl("/versions"));
      const table = page.getByRole("table", { name: "Versions, newest first" });
      await table.getByRole("cell", { name: other, exact: true }).first().waitFor();
      await table.getByRole("cell", { name: "You", exact: true }).first().waitFor();
      expect((await table.textContent()) ?? "").not.toMatch(/Session |Person /);
    }
    await screenshot(annPage, "people-versions");
    expect([...annBrowser.problems, ...bobBrowser.problems]).toEqual([]);
  });

  it("tells the last owner they cannot leave, and signs a removed member's open page out within seconds", async () => {
    const annPage = annBrowser.page;
    await annPage.goto(`${platform.baseUrl}/settings/members`);
    await annPage.getByRole("button", { name: "Leave organisation" }).click();
    const leave = annPage.getByRole("dialog", { name: /^Leave People/ });
    await leave.getByRole("button", { name: "Leave organisation" }).click();
    await leave
      .getByRole("alert")
      .filter({ hasText: "You are the organisation's last owner, so you cannot leave it" })
      .waitFor();
    await leave.getByRole("button", { name: "Cancel" }).click();

    // Bob has the dataset open, following it live.
    const bobPage = bobBrowser.page;
    await bobPage.goto(datasetUrl());
    await bobPage.getByRole("grid", { name: "Dataset rows" }).getByText("r1", { exact: true }).waitFor();

    const bobRow = annPage
      .getByRole("table", { name: "Members" })
      .getByRole("row")
      .filter({ hasText: bob.email });
    await bobRow.getByRole("button", { name: `Remove ${bob.name}` }).click();
    const confirm = annPage.getByRole("dialog", { name: `Remove ${bob.name}?` });
    await confirm.getByRole("button", { name: "Remove member" }).click();
    const removedAt = Date.now();
    await annPage.getByText(`Removed ${bob.name}`).waitFor();
    await bobRow.waitFor({ state: "detached" });

    // His next request is refused: the page says he is signed out.
    await bobPage.getByText(/Your session has ended/).waitFor({ timeout: 5_000 });
    expect(Date.now() - removedAt).toBeLessThan(5_000);
    expect(new URL(bobPage.url()).pathname).toBe("/sign-in");
    await screenshot(bobPage, "people-removed-signed-out");
    expect(annBrowser.problems).toEqual([]);
  });

  it("offers a sign-in link by e-mail on the sign-in page, with the same answer for any address, and says when to wait", async () => {
    const opened = await openPage(chromium.browser, platform.baseUrl);
    pages.push(opened);
    const page = opened.page;
    await page.goto(`${platform.baseUrl}/sign-in`);
    const form = page.getByRole("form", { name: "Sign in by e-mail" });
    const before = mailbox.messages.filter((message) => recipientOf(message) === ann.email).length;
    for (const email of [ann.email, `nobody-${suffix}@example.com`]) {
      await form.getByLabel("Your e-mail address").fill(email);
      await form.getByRole("button", { name: "E-mail me a link" }).click();
      await form
        .getByRole("status")
        .filter({
          hasText: `If ${email} is a member, a link is on its way. It works once, within 15 minutes.`,
        })
        .waitFor();
    }
    await expectAccessible(page, "the sign-in page");
    await screenshot(page, "sign-in-email-link");

    // The link in the mail signs Ann in, in the browser she opens it in.
    const mailed = await browserOf(await linkMailedTo(ann.email, before + 1));
    expect(mailed.page.url()).toBe(`${platform.baseUrl}/projects`);

    // Asked again too soon for the same address: told when to try again, and nothing is sent.
    const other = await openPage(chromium.browser, platform.baseUrl);
    pages.push(other);
    await other.page.goto(`${platform.baseUrl}/sign-in`);
    const again = other.page.getByRole("form", { name: "Sign in by e-mail" });
    await again.getByLabel("Your e-mail address").fill(ann.email);
    await again.getByRole("button", { name: "E-mail me a link" }).click();
    await again
      .getByRole("status")
      .filter({ hasText: `If ${ann.email} is a member` })
      .waitFor();
    await linkMailedTo(ann.email, before + 2);
    await again.getByRole("button", { name: "E-mail me a link" }).click();
    await again
      .getByRole("alert")
      .filter({ hasText: /^Too many requests for sign-in links; try again in \d+ (minute|hour)s?\.$/ })
      .waitFor();
    expect(await again.getByRole("status").count()).toBe(0);
    await screenshot(other.page, "sign-in-too-many");
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(mailbox.messages.filter((message) => recipientOf(message) === ann.email).length).toBe(before + 2);
    expect([...opened.problems, ...mailed.problems, ...other.problems]).toEqual([]);
  });
});

/**
 * A platform with no SMTP server: the invitation's link is shown to the inviter once, to pass on, and
 * signs the colleague in; the sign-in page's "E-mail me a link" says the platform sends no mail.
 */
describe.runIf(chromiumAvailable())("people in the web application, without mail", () => {
  const platform = startedForSuite(() => startEmbedded());
  const watched = watchedPageForSuite(() => platform.baseUrl, { apiKey: () => platform.ownerKey });
  const email = `cy-${randomBytes(3).toString("hex")}@example.com`;

  it("shows the invitation link once, to copy, and the link signs the colleague in", async () => {
    const page = watched.page;
    await page.goto(`${platform.baseUrl}/settings/members`);
    const invite = page.getByRole("form", { name: "Invite a member" });
    await invite.getByLabel("E-mail").fill(email);
    await invite.getByLabel("Role").selectOption("viewer");
    await invite.getByRole("button", { name: "Invite" }).click();
    const result = page.getByRole("status", { name: "Invitation link" });
    await result.getByText("It is shown this once").waitFor();
    const link = (await result.getByLabel(`Invitation link for ${email}`).textContent()) ?? "";
    expect(link).toMatch(new RegExp(`^${platform.baseUrl}/sign-in#code=svc_sc_`));
    await expectAccessible(page, "the members page with an invitation link");
    await screenshot(page, "members-invite-link");

    // Gone once dismissed or the page is left: the platform does not give it again.
    await result.getByRole("button", { name: "Done" }).click();
    await result.waitFor({ state: "detached" });
    await page.reload();
    expect(await page.getByText(link).count()).toBe(0);

    const colleague = await openPage(watched.browser, platform.baseUrl);
    try {
      await colleague.page.goto(link);
      await colleague.page.waitForURL(/\/projects$/);
      await colleague.page.goto(`${platform.baseUrl}/settings/account`);
      await colleague.page.getByRole("form", { name: "You" }).getByLabel("E-mail").waitFor();
      expect(await colleague.page.getByRole("form", { name: "You" }).getByLabel("E-mail").inputValue()).toBe(
        email,
      );
      // A viewer may not invite: the page says who may, and offers no form.
      await colleague.page.goto(`${platform.baseUrl}/settings/members`);
      await colleague.page.getByText(/your role is viewer/).waitFor();
      expect(await colleague.page.getByRole("form", { name: "Invite a member" }).count()).toBe(0);
      expect(colleague.problems).toEqual([]);
    } finally {
      await colleague.context.close();
    }
    // Signed in once, the colleague is active.
    await page.reload();
    const row = page.getByRole("table", { name: "Members" }).getByRole("row").filter({ hasText: email });
    await row.getByText("active", { exact: true }).waitFor();
    expect(watched.problems).toEqual([]);
  });

  it("says on the sign-in page that this platform sends no mail", async () => {
    const opened = await openPage(watched.browser, platform.baseUrl);
    try {
      await opened.page.goto(`${platform.baseUrl}/sign-in`);
      const form = opened.page.getByRole("form", { name: "Sign in by e-mail" });
      await form.getByLabel("Your e-mail address").fill(email);
      await form.getByRole("button", { name: "E-mail me a link" }).click();
      await form
        .getByRole("alert")
        .filter({ hasText: /This platform sends no mail/ })
        .waitFor();
      expect(await form.getByRole("status").count()).toBe(0);
      await screenshot(opened.page, "sign-in-no-mail");
    } finally {
      await opened.context.close();
    }
  });
});
