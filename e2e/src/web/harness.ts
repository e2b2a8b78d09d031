import { mkdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { harnessForSuite } from "@svc/testing";
import { programsAvailable } from "@svc/testing/programs";
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";
import { beforeEach, expect } from "vitest";
import { root } from "../platform";

/**
 * Debian's Chromium, driven headless by playwright-core: no browser is downloaded. Without it the
 * browser suites are skipped and the run names it at the end, unless SVC_REQUIRE_INFRA=1 (CI) makes
 * that a failure (see programsAvailable).
 */
export const CHROMIUM = process.env.SVC_CHROMIUM ?? "/usr/bin/chromium";

export const chromiumAvailable = (): boolean => programsAvailable(CHROMIUM);

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--no-first-run",
      "--disable-sync",
    ],
  });
}

/**
 * Chromium, launched before a suite's tests and closed after them. The object is returned at once and
 * filled in by `beforeAll` (as `harnessForSuite` does): read its fields in hooks and tests, not while
 * the suite is declared.
 */
export function chromiumForSuite(): { browser: Browser } {
  return harnessForSuite(async () => {
    const browser = await launchChromium();
    return { browser, close: () => browser.close() };
  });
}

/** Where each test leaves a screenshot of its final state (not committed). */
export const SCREENSHOTS = join(root, "e2e", "test-output", "web");

export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const file = join(SCREENSHOTS, `${name}.png`);
  await page.screenshot({ path: file, fullPage: false });
  return file;
}

/** The window every suite sees its pages in, and screenshots them at. */
const VIEWPORT = { width: 1280, height: 800 };

/**
 * A page that records what a person would not see but must not happen: Content-Security-Policy
 * violations, uncaught errors, and failed requests to anywhere but the platform itself.
 */
export interface WatchedPage {
  /** The page's own browser context: its cookies and storage, as a person's browser profile. */
  context: BrowserContext;
  page: Page;
  problems: string[];
}

/** A watched page of the platform at `baseUrl`, in a new browser context at the suites' window size. */
export async function openPage(browser: Browser, baseUrl: string): Promise<WatchedPage> {
  const context = await browser.newContext({ viewport: VIEWPORT });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on("console", (message) => {
    const text = message.text();
    if (/Content Security Policy|Refused to/i.test(text)) problems.push(`CSP: ${text}`);
  });
  page.on("pageerror", (error) => problems.push(`uncaught: ${error.message}`));
  page.on("request", (request) => {
    const url = request.url();
    if (!url.startsWith(baseUrl) && !url.startsWith("data:")) problems.push(`request elsewhere: ${url}`);
  });
  return { context, page, problems };
}

/** `openPage`, with its browser signed in with `apiKey` as `signIn` does it. */
export async function openSignedInPage(
  browser: Browser,
  baseUrl: string,
  apiKey: string,
): Promise<WatchedPage> {
  const opened = await openPage(browser, baseUrl);
  await signIn(opened.page, baseUrl, apiKey);
  return opened;
}

/**
 * `chromiumForSuite`, and one watched page of the platform at `baseUrl()` that the suite's tests share,
 * signed in with `apiKey()` before them when one is given: each test starts with no problem recorded.
 */
export function watchedPageForSuite(
  baseUrl: () => string,
  { apiKey }: { apiKey?: () => string } = {},
): WatchedPage & { browser: Browser } {
  const chromium = chromiumForSuite();
  const watched = harnessForSuite(async () => {
    const opened = apiKey
      ? await openSignedInPage(chromium.browser, baseUrl(), apiKey())
      : await openPage(chromium.browser, baseUrl());
    return { ...opened, browser: chromium.browser, close: () => opened.context.close() };
  });
  beforeEach(() => {
    watched.problems.length = 0;
  });
  return watched;
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/** axe-core over the page as it is now: no serious or critical violation. */
export async function expectAccessible(page: Page, label: string): Promise<void> {
  // Evaluated through the DevTools protocol, which the page's CSP does not govern.
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run(): Promise<{ violations: AxeViolation[] }> } }).axe;
    const result = await axe.run();
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => ({ target: n.target })),
    }));
  });
  const serious = violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(
    serious.map(
      (v) => `${v.impact} ${v.id}: ${v.help} at ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`,
    ),
    `accessibility of ${label}`,
  ).toEqual([]);
}

/**
 * Replaces the whole text of a cell editor, as a person types it: select all, delete, type. (Pasting
 * over a selection of several lines makes Chromium's own editing write a `style` attribute, which the
 * CSP blocks and CodeMirror redraws anyway; typing does not.)
 */
export async function replaceText(
  page: Page,
  label: string,
  text: string,
  within = page.getByRole("complementary"),
) {
  await within.getByLabel(label, { exact: true }).click();
  await page.keyboard.press("Control+a");
  await page.keyboard.press("Backspace");
  await page.keyboard.type(text);
}

/** Every dataset's drafts the page's browser keeps for the next visit (in IndexedDB), as JSON text. */
export function storedDrafts(page: Page): Promise<string> {
  return page.evaluate<string>(`new Promise((resolve, reject) => {
    const open = indexedDB.open("svc");
    open.onerror = () => reject(open.error);
    open.onsuccess = () => {
      const all = open.result.transaction("edit-sessions").objectStore("edit-sessions").getAll();
      all.onerror = () => reject(all.error);
      all.onsuccess = () => {
        open.result.close();
        resolve(JSON.stringify(all.result));
      };
    };
  })`);
}

/** Signs the page's browser in with an API key through the sign-in page, as a person does. */
export async function signIn(page: Page, baseUrl: string, apiKey: string): Promise<void> {
  await page.goto(`${baseUrl}/sign-in`);
  await page.getByLabel("API key").fill(apiKey);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL(/\/projects$/);
}
