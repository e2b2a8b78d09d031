import { realInfra } from "@svc/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditVersions } from "../../audit";
import { client } from "../../http";
import { type Platform, startPlatform } from "../../platform";
import { TcpProxy } from "../../tcp-proxy";
import {
  chromiumAvailable,
  expectAccessible,
  replaceText,
  screenshot,
  watchedPageForSuite,
} from "../../web/harness";

const infra = realInfra();

/**
 * PostgreSQL goes away under a curator with a dataset open on the distributed platform (every service
 * reaches it through a proxy the test cuts, as a restart of the database looks to them) and comes
 * back: the page says the platform is not answering without getting in the way, an edit tried then is
 * reported as not saved and kept, and once the database answers again the page catches up by itself,
 * in the same page load.
 */
describe.runIf(chromiumAvailable() && infra)("the web application while PostgreSQL restarts", () => {
  let proxy: TcpProxy;
  let platform: Platform;

  beforeAll(async () => {
    const target = new URL(infra?.databaseUrl ?? "postgres://127.0.0.1:5432");
    proxy = await TcpProxy.start({ host: target.hostname, port: Number(target.port || 5432) });
    platform = await startPlatform({
      serviceDatabaseUrl: (url) => proxy.urlFor(url),
      gatewayEnv: { SVC_REQUEST_TIMEOUT_MS: "2000" },
    });
  });
  afterAll(async () => {
    await platform?.stop();
    await proxy?.close();
  });
  const watched = watchedPageForSuite(() => platform.baseUrl, { apiKey: () => platform.ownerKey });

  it("says the platform is not answering, keeps the edit tried meanwhile, and recovers without a reload", async () => {
    const api = client(platform.baseUrl, platform.ownerKey);
    const base = "/v1/projects/outage/datasets/answers";
    expect((await api.post("/v1/projects", { name: "Outage" })).status).toBe(201);
    const made = await api.post<{ id: string }>("/v1/projects/outage/datasets", { name: "Answers" });
    expect(made.status).toBe(201);
    const datasetId = made.body.id;
    const rows = [
      { id: "o1", input: "2+2?", expectedOutput: "five" },
      { id: "o2", input: "3+3?", expectedOutput: "seven" },
    ];
    const inserted = await api.post<{ versionId: string; version: number }>(`${base}/rows`, { rows });
    expect(inserted.status).toBe(201);

    const { page, problems } = watched;
    await page.goto(`${platform.baseUrl}/projects/outage/datasets/answers?row=o1`);
    const panel = page.getByRole("complementary", { name: "Row o1" });
    await panel.waitFor();
    const grid = page.getByRole("grid", { name: "Dataset rows" });
    await grid.getByText("seven", { exact: true }).waitFor();
    // Marks this page load: a reload would lose it.
    await page.evaluate("window.outageMark = 'same page'");

    // Someone else changes another row; this page does not know yet.
    const theirs = await api.patch<{ versionId: string; version: number }>(`${base}/rows/o2`, {
      expectedOutput: "six, from a colleague",
    });
    expect(theirs.status).toBe(200);

    // What the page asks the platform while it waits for it, answered or not.
    const tries: number[] = [];
    page.on("response", (response) => {
      if (new URL(response.url()).pathname === "/v1/projects") tries.push(response.status());
    });
    await proxy.cut();
    await replaceText(page, "Expected output", "four");
    await panel.getByRole("button", { name: "Save" }).click();
    const banner = page.getByRole("status").filter({ hasText: "Cannot reach the platform" });
    await banner.waitFor();
    await banner.getByText(/retrying/).waitFor();
    // The edit is not lost: it says so where it was made, and the draft and the session keep it.
    await panel
      .getByRole("alert")
      .getByText(/Not saved; your edit is kept/)
      .waitFor();
    await panel.getByText("1 changed cell").waitFor();
    await page.getByRole("region", { name: "Unsaved edits" }).getByText("1 unsaved edit in 1 row").waitFor();
    // The rest of the page stays as it was, usable: the grid with what it showed, the editor open.
    await grid.getByText("seven", { exact: true }).waitFor();
    expect(await panel.getByRole("button", { name: "Save" }).isEnabled()).toBe(true);
    await expectAccessible(page, "the dataset page while the platform is not answering");
    await screenshot(page, "database-down");
    // It keeps trying by itself, and at once when asked.
    await expect.poll(() => tries.length, { timeout: 10_000 }).toBeGreaterThanOrEqual(1);
    const before = tries.length;
    await banner.getByRole("button", { name: "Retry now" }).click();
    await expect.poll(() => tries.length, { timeout: 2_000 }).toBeGreaterThan(before);
    expect(new Set(tries)).toEqual(new Set([503]));
    await banner.waitFor();

    await proxy.restore();
    await banner.waitFor({ state: "hidden", timeout: 20_000 });
    await page.getByText("Connected to the platform again.").waitFor();
    // The grid caught up with the other client's change by itself, in the same page load.
    await grid.getByText("six, from a colleague", { exact: true }).waitFor();
    expect(await page.evaluate("window.outageMark")).toBe("same page");
    await panel.getByText("1 changed cell").waitFor();

    await panel.getByRole("button", { name: "Save" }).click();
    const version = theirs.body.version + 1;
    await page.getByText(`Saved row o1 as version ${version}`).waitFor();
    await expect
      .poll(() => page.locator(".version-chip").textContent())
      .toMatch(new RegExp(`^Version\\s*${version}$`));
    const row = await api.get<{ expectedOutput: unknown; version: number }>(`${base}/rows/o1`);
    expect(row.body).toMatchObject({ expectedOutput: "four", version });
    await screenshot(page, "database-recovered");

    // Nothing was written twice or lost: versions 1..current with no gap, and every saved change there.
    const dataset = await api.get<{ version: number }>(base);
    expect(dataset.body.version).toBe(version);
    await auditVersions(platform.databaseUrl, [
      ...rows.map(({ id, expectedOutput }) => ({ datasetId, ...inserted.body, rowId: id, expectedOutput })),
      { datasetId, ...theirs.body, rowId: "o2", expectedOutput: "six, from a colleague" },
      { datasetId, version, rowId: "o1", expectedOutput: "four" },
    ]);
    // The failed requests are the outage itself; nothing else went wrong.
    expect(problems.filter((p) => !/status of 503/.test(p))).toEqual([]);
  });
});
