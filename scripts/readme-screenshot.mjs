#!/usr/bin/env node
// Takes the README's screenshot, docs/images/dataset-view.png, of the page as it is: starts the built
// embedded platform on a free port with a fresh data folder, seeds a support bot's golden answers
// through the HTTP API, opens the dataset in headless Chromium, opens a row that lacks an expected output
// and types one (left unsaved, so the editor shows the change), then stops everything it started.
// Needs `node scripts/build.mjs` first and Chromium at /usr/bin/chromium (or SVC_CHROMIUM).
// Usage: readme-screenshot.mjs [output.png]
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const output = resolve(process.argv[2] ?? join(root, "docs", "images", "dataset-view.png"));
const entry = join(root, "services", "embedded", "dist", "main.js");
const chromiumPath = process.env.SVC_CHROMIUM ?? "/usr/bin/chromium";
const ROWS = 240;

if (!existsSync(entry)) {
  console.error(`${entry} is missing: run "node scripts/build.mjs" first`);
  process.exit(1);
}

/** A port nothing listens on now. */
function freePort() {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolvePort(typeof address === "object" && address ? address.port : 0));
    });
  });
}

/** The embedded platform as `npm start` runs it, on its own port, data folder and owner key. */
async function startPlatform() {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), "svc-readme-"));
  const ownerKey = `svc_${randomBytes(24).toString("base64url")}`;
  const child = spawn(process.execPath, ["--single-threaded-gc", entry], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      SVC_DATA_DIR: dataDir,
      SVC_BOOTSTRAP_KEY: ownerKey,
      LOG_LEVEL: "warn",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const logs = [];
  child.stdout.on("data", (chunk) => logs.push(String(chunk)));
  child.stderr.on("data", (chunk) => logs.push(String(chunk)));
  const exited = new Promise((resolveExit) => child.once("exit", resolveExit));
  const baseUrl = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGTERM");
      const stopped = await Promise.race([exited.then(() => true), sleep(10_000).then(() => false)]);
      if (!stopped) child.kill("SIGKILL");
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) {
      await stop();
      throw new Error(`the platform exited (${child.exitCode}):\n${logs.join("")}`);
    }
    const ready = await fetch(`${baseUrl}/readyz`, { signal: AbortSignal.timeout(2_000) }).then(
      (response) => response.status === 200,
      () => false,
    );
    if (ready) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`the platform was not ready within two minutes:\n${logs.join("")}`);
    }
    await sleep(250);
  }
  return { baseUrl, ownerKey, stop };
}

function sleep(ms) {
  return new Promise((resolveSleep) => setTimeout(resolveSleep, ms));
}

/** A JSON request with the owner key; any answer but the expected status stops the script. */
async function call(platform, method, path, body, expected) {
  const response = await fetch(`${platform.baseUrl}${path}`, {
    method,
    headers: { Authorization: `Bearer ${platform.ownerKey}`, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (response.status !== expected) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return JSON.parse(text);
}

/** [locale, question, the bot's draft answer, the answer a reviewer wrote]. */
const QUESTIONS = [
  [
    "en",
    "How do I cancel my subscription?",
    "You can cancel anytime from your account.",
    "Go to Settings → Billing and choose Cancel plan.",
  ],
  [
    "en",
    "Can I change the email address on my account?",
    "Email addresses cannot be changed.",
    "Yes: Settings → Profile → Email, then confirm the link we send.",
  ],
  [
    "fr",
    "Comment réinitialiser mon mot de passe ?",
    "Contactez le support pour réinitialiser votre mot de passe.",
    "Cliquez sur « Mot de passe oublié » sur la page de connexion.",
  ],
  [
    "en",
    "Why was I charged twice this month?",
    "Double charges are usually a bank error.",
    "One charge is a pending authorisation; it disappears within 3 days.",
  ],
  [
    "en",
    "Does the free plan include API access?",
    "API access requires a paid plan.",
    "Yes, up to 1,000 requests a month.",
  ],
  [
    "fr",
    "Où trouver mes factures ?",
    "Vos factures vous sont envoyées par e-mail.",
    "Dans Paramètres → Facturation → Historique.",
  ],
  [
    "en",
    "How do I export my data?",
    "Exports are available on request.",
    "Settings → Data → Export downloads a ZIP of CSV files.",
  ],
  [
    "en",
    "Is there a discount for non-profits?",
    "We do not offer discounts.",
    "Yes, 50% off: write to billing@ with proof of status.",
  ],
  [
    "fr",
    "Puis-je payer par virement ?",
    "Nous acceptons uniquement les cartes bancaires.",
    "Oui, pour les plans annuels à partir de 10 sièges.",
  ],
  [
    "en",
    "The mobile app keeps logging me out",
    "Try reinstalling the app.",
    "Update to version 4.2 or later: it fixes the session refresh.",
  ],
  [
    "en",
    "How many team members can I invite?",
    "You can invite up to five people.",
    "Five on Starter, as many as you like on Business.",
  ],
  [
    "fr",
    "Comment supprimer mon compte ?",
    "Écrivez-nous pour supprimer votre compte.",
    "Paramètres → Compte → Supprimer, puis confirmez par e-mail.",
  ],
];
const DIFFICULTIES = ["easy", "medium", "hard"];
/** Every seventh row is still to review: it has no expected output yet. */
const toReview = (index) => index % 7 === 3;
const rowIdOf = (index) => `q-${String(index + 1).padStart(3, "0")}`;

/** A support bot's golden answers: its drafts as outputs, the reviewed answers expected. */
function goldenRows(difficulty) {
  return Array.from({ length: ROWS }, (_, index) => {
    const [locale, question, draft, answer] = QUESTIONS[index % QUESTIONS.length];
    return {
      id: rowIdOf(index),
      input: { question, locale },
      output: draft,
      expectedOutput: toReview(index) ? null : answer,
      metadata: { source: index % 3 === 0 ? "chat" : "tickets", ticket: 10_000 + index * 7 },
      custom: { [difficulty]: DIFFICULTIES[(index * 5) % 3] },
    };
  });
}

async function seed(platform) {
  await call(platform, "POST", "/v1/projects", { name: "support-bot" }, 201);
  const datasets = "/v1/projects/support-bot/datasets";
  const dataset = await call(platform, "POST", datasets, { name: "Golden answers" }, 201);
  const base = `${datasets}/${dataset.slug}`;
  const column = await call(platform, "POST", `${base}/columns`, { name: "difficulty" }, 201);
  await call(platform, "POST", `${base}/rows`, { rows: goldenRows(column.identifier) }, 201);
  return `/projects/support-bot/datasets/${dataset.slug}`;
}

async function shoot(platform, datasetPath) {
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--no-first-run",
    ],
  });
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const problems = [];
    page.on("pageerror", (error) => problems.push(error.message));
    // Signing in as a person does with a key (the e2e suites' signIn); the first page can be slow to come.
    await page.goto(`${platform.baseUrl}/sign-in`);
    await page.getByLabel("API key").fill(platform.ownerKey);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL(/\/projects$/, { timeout: 60_000 });

    await page.goto(`${platform.baseUrl}${datasetPath}`);
    const grid = page.getByRole("grid", { name: "Dataset rows" });
    await page.getByText(`${ROWS} rows`, { exact: true }).waitFor();
    // Narrower row id, input and output columns, as a curator drags them, so that the expected output
    // shows beside the open row.
    for (const [name, width] of [
      ["Row", 80],
      ["Input", 190],
      ["Output", 200],
    ]) {
      const header = grid.getByRole("columnheader", { name, exact: true });
      const edge = await header.locator(".col-resizer").boundingBox();
      const box = await header.boundingBox();
      if (!edge || !box) throw new Error(`the ${name} column's header is not on screen`);
      await page.mouse.move(edge.x + edge.width / 2, edge.y + edge.height / 2);
      await page.mouse.down();
      await page.mouse.move(box.x + width, edge.y + edge.height / 2, { steps: 5 });
      await page.mouse.up();
    }
    // The newest row still to review (the newest rows come first), opened as a curator does: a click,
    // then Enter to edit it.
    let index = ROWS - 1;
    while (!toReview(index)) index--;
    const rowId = rowIdOf(index);
    await grid.getByText(rowId, { exact: true }).click();
    await page.keyboard.press("Enter");
    const panel = page.getByRole("complementary", { name: `Row ${rowId}` });
    await panel.waitFor();
    await panel.getByLabel("Expected output", { exact: true }).click();
    await page.keyboard.type(QUESTIONS[index % QUESTIONS.length][3]);
    await panel.getByText("1 changed cell").waitFor();
    // The caret's blink and the fonts settle before the picture.
    await page.evaluate("document.fonts.ready");
    await page.screenshot({ path: output, caret: "hide" });
    if (problems.length > 0) throw new Error(`the page reported errors:\n${problems.join("\n")}`);
  } finally {
    await browser.close();
  }
}

const platform = await startPlatform();
try {
  const datasetPath = await seed(platform);
  await shoot(platform, datasetPath);
  console.log(`wrote ${output}`);
} finally {
  await platform.stop();
}
