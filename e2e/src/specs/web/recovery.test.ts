import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { kill, scratchDirsForSuite, spawnEmbedded, type Watched, waitRunning } from "../../embedded";
import { client } from "../../http";
import { freePort } from "../../platform";
import {
  chromiumAvailable,
  chromiumForSuite,
  expectAccessible,
  openSignedInPage,
  replaceText,
  screenshot,
} from "../../web/harness";

/**
 * The platform goes away under a curator with unsaved edits (killed, as a crash or a lost connection
 * looks to the page) and comes back on the same address and data: the page says what happened, keeps
 * every staged edit, and saves them once the platform answers again, in the same browser session.
 */
describe.runIf(chromiumAvailable())("the web application when the platform goes away and comes back", () => {
  const scratch = scratchDirsForSuite();
  const dir = scratch("web-recovery");
  const ownerKey = `svc_${randomBytes(24).toString("base64url")}`;
  let port: number;
  let proc: Watched | undefined;
  const chromium = chromiumForSuite();
  const start = async () => {
    proc = spawnEmbedded({
      SVC_DATA_DIR: join(dir, "data"),
      PORT: String(port),
      SVC_BOOTSTRAP_KEY: ownerKey,
    });
    return waitRunning(proc);
  };

  beforeAll(async () => {
    port = await freePort();
  });
  afterAll(async () => {
    await kill(proc);
  });

  it("keeps the staged edits through the outage, says so, and saves them when it is back", async () => {
    const baseUrl = await start();
    const api = client(baseUrl, ownerKey);
    expect((await api.post("/v1/projects", { name: "Outage" })).status).toBe(201);
    expect((await api.post("/v1/projects/outage/datasets", { name: "Answers" })).status).toBe(201);
    const rows = [{ id: "o1", input: "2+2?", output: "5" }];
    expect((await api.post("/v1/projects/outage/datasets/answers/rows", { rows })).status).toBe(201);

    const { context, page, problems } = await openSignedInPage(chromium.browser, baseUrl, ownerKey);
    await page.goto(`${baseUrl}/projects/outage/datasets/answers?row=o1`);
    await page.getByRole("complementary", { name: "Row o1" }).waitFor();
    await replaceText(page, "Expected output", "4");
    const bar = page.getByRole("region", { name: "Unsaved edits" });
    await bar.getByText("1 unsaved edit in 1 row").waitFor();

    // The platform dies with the edit unsaved.
    await kill(proc);
    await bar.getByRole("button", { name: "Save all" }).click();
    await bar
      .getByRole("alert")
      .getByText(/The platform could not be reached.*nothing was lost/)
      .waitFor();
    await bar.getByText("1 unsaved edit in 1 row").waitFor();
    await expectAccessible(page, "a save that could not reach the platform");
    await screenshot(page, "outage-unsaved");

    // Back on the same address and data: the same session saves the same edit, once.
    expect(await start()).toBe(baseUrl);
    await bar.getByRole("button", { name: "Save all" }).click();
    await page.getByText("Saved 1 edit in 1 row as version 2").waitFor();
    const row = await api.get<{ expectedOutput: unknown; version: number }>(
      "/v1/projects/outage/datasets/answers/rows/o1",
    );
    expect(row.body).toMatchObject({ expectedOutput: "4", version: 2 });
    await screenshot(page, "outage-saved");
    // The failed requests are the outage itself; nothing else went wrong.
    expect(problems.filter((p) => !/ERR_CONNECTION_REFUSED|Failed to load resource/.test(p))).toEqual([]);
    await context.close();
  });
});
