import { readFile } from "node:fs/promises";
import type { Route } from "playwright-core";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { client } from "../../http";
import { startedForSuite } from "../../platform";
import { startEmbedded } from "../../targets";
import {
  chromiumAvailable,
  expectAccessible,
  screenshot,
  signIn,
  watchedPageForSuite,
} from "../../web/harness";

interface Page_<T> {
  items: T[];
  hasMore: boolean;
  nextCursor: string | null;
}

/**
 * The curator's loop, second round, in Debian's Chromium against the embedded platform: files in and
 * out that say what they did, and pages that a keyboard, a screen reader and a phone can use.
 */
describe.runIf(chromiumAvailable())("the curator's loop in the web application, second round", () => {
  const platform = startedForSuite(() => startEmbedded());
  const watched = watchedPageForSuite(() => platform.baseUrl);
  const api = () => client(platform.baseUrl, platform.ownerKey);
  const project = "/v1/projects/loop2";
  const at = (dataset: string, path = "") => `${platform.baseUrl}/projects/loop2/datasets/${dataset}${path}`;
  const dialog = () => watched.page.getByRole("dialog", { name: "Import a file" });

  beforeAll(async () => {
    expect((await api().post("/v1/projects", { name: "Loop2" })).status).toBe(201);
    await signIn(watched.page, platform.baseUrl, platform.ownerKey);
  });
  afterEach(async ({ task }) => {
    await watched.page.unrouteAll({ behavior: "wait" });
    if (task.result?.state === "fail") await screenshot(watched.page, `failed ${task.name}`.slice(0, 60));
  });
  /** Refusals the tests make on purpose are not problems of the page. */
  const expectNoProblems = () =>
    expect(watched.problems.filter((p) => !/status of (401|412|503)/.test(p))).toEqual([]);

  const newDataset = async (name: string, rows: { id: string; input: unknown; output?: unknown }[] = []) => {
    expect((await api().post(`${project}/datasets`, { name })).status).toBe(201);
    const slug = name.toLowerCase();
    if (rows.length > 0) {
      expect((await api().post(`${project}/datasets/${slug}/rows`, { rows })).status).toBe(201);
    }
    return slug;
  };
  const countRows = async (slug: string) => {
    let count = 0;
    let cursor: string | null = null;
    do {
      const query: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : "";
      const page = await api().get<Page_<unknown>>(`${project}/datasets/${slug}/rows?limit=200${query}`);
      count += page.body.items.length;
      cursor = page.body.hasMore ? page.body.nextCursor : null;
    } while (cursor);
    return count;
  };
  const versionOf = async (slug: string) =>
    (await api().get<{ version: number }>(`${project}/datasets/${slug}`)).body.version;
  const csvOf = (rows: number) =>
    ["id,input,output", ...Array.from({ length: rows }, (_, i) => `c${i},question ${i},answer ${i}`)].join(
      "\n",
    );
  const chooseFile = async (name: string, mimeType: string, text: string | Buffer) => {
    await dialog()
      .locator('input[type="file"]')
      .setInputFiles({ name, mimeType, buffer: Buffer.isBuffer(text) ? text : Buffer.from(text) });
  };

  describe("an import whose progress check is refused", () => {
    it("keeps checking through 503s, honouring Retry-After, and reports the import's success", async () => {
      const slug = await newDataset("Busy");
      const checks: { at: number; status: number }[] = [];
      let refusals = 5;
      await watched.page.route(
        /\/v1\/projects\/loop2\/datasets\/busy\/imports\/[a-z0-9]+$/,
        async (route) => {
          if (refusals > 0) {
            refusals--;
            checks.push({ at: Date.now(), status: 503 });
            await route.fulfill({
              status: 503,
              headers: { "content-type": "application/json", "retry-after": "1" },
              body: JSON.stringify({
                error: "No service answered",
                code: "service_unavailable",
                requestId: "r",
              }),
            });
            return;
          }
          checks.push({ at: Date.now(), status: 200 });
          await route.continue();
        },
      );
      await watched.page.goto(at(slug));
      await watched.page.getByRole("button", { name: "Import", exact: true }).first().click();
      await chooseFile("busy.csv", "text/csv", csvOf(300));
      await dialog().getByRole("table", { name: "First rows of the file" }).waitFor();
      await dialog().getByRole("button", { name: "Import rows" }).click();
      // While unanswered, the dialog says the import goes on.
      await dialog()
        .getByText(/The platform is busy and did not say how the import is going/)
        .waitFor();
      await expectAccessible(watched.page, "an import whose progress check is refused");
      await screenshot(watched.page, "import-check-refused");
      await dialog().getByText("Imported 300 rows as version 1.").waitFor({ timeout: 30_000 });
      expect(
        await dialog()
          .getByText(/busy or restarting/)
          .count(),
      ).toBe(0);
      expect(checks.filter((check) => check.status === 503)).toHaveLength(5);
      // Retry-After: 1 was waited for between the refusals the client retried by itself.
      const gaps = checks.slice(1).map((check, i) => check.at - (checks[i]?.at ?? 0));
      expect(gaps.slice(0, 3).every((gap) => gap >= 900)).toBe(true);
      await screenshot(watched.page, "import-check-refused-done");
      expect(await countRows(slug)).toBe(300);
      expectNoProblems();
    });

    it("sends one Idempotency-Key for a file and its settings, so trying again is the same import", async () => {
      const slug = await newDataset("Twice");
      const keys: string[] = [];
      const answerBusy = async (route: Route) => {
        keys.push((await route.request().headerValue("idempotency-key")) ?? "");
        // The platform takes the import, but its answer is lost: the browser sees a 503.
        await route.fetch();
        await route.fulfill({
          status: 503,
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ error: "No service answered", code: "service_unavailable", requestId: "r" }),
        });
      };
      const imports = /\/v1\/projects\/loop2\/datasets\/twice\/imports\?/;
      await watched.page.route(imports, answerBusy);
      await watched.page.goto(at(slug));
      await watched.page.getByRole("button", { name: "Import", exact: true }).first().click();
      await chooseFile("twice.csv", "text/csv", csvOf(40));
      await dialog().getByRole("button", { name: "Import rows" }).click();
      await dialog()
        .getByText(/busy or restarting/)
        .waitFor();
      await expect.poll(() => countRows(slug)).toBe(40);

      // Trying again sends the same key: the platform answers with the first import.
      await watched.page.unroute(imports, answerBusy);
      await watched.page.route(imports, async (route) => {
        keys.push((await route.request().headerValue("idempotency-key")) ?? "");
        await route.continue();
      });
      await dialog().getByRole("button", { name: "Try again" }).click();
      await dialog().getByText("Imported 40 rows as version 1.").waitFor();
      expect(keys).toHaveLength(2);
      expect(keys[1]).toBe(keys[0]);
      expect(await countRows(slug)).toBe(40);
      expect(await versionOf(slug)).toBe(1);

      // Choosing the file again after the import is known to have succeeded is a new import.
      await dialog().getByRole("button", { name: "Import another file" }).click();
      await chooseFile("twice.csv", "text/csv", csvOf(40).replaceAll(/^c/gm, "d"));
      await dialog().getByRole("button", { name: "Import rows" }).click();
      await dialog().getByText("Imported 40 rows as version 2.").waitFor();
      expect(keys).toHaveLength(3);
      expect(keys[2]).not.toBe(keys[0]);
      expect(await countRows(slug)).toBe(80);
      expectNoProblems();
    });
  });

  describe("files the import cannot take", () => {
    const png = Buffer.from(
      "89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000000000200015e2d2f8d0000000049454e44ae426082",
      "hex",
    );
    const cases: [string, string, string | Buffer, string][] = [
      ["empty.csv", "text/csv", "", "This file is empty: there is nothing to import."],
      [
        "header.csv",
        "text/csv",
        "id,input,output\n",
        "This file has a header row and no rows below it: there is nothing to import.",
      ],
      [
        "twice.csv",
        "text/csv",
        "id,input,output,input\nr1,a,b,c\n",
        "The header row names “input” twice (fields 2 and 4): give each field its own name in the first row.",
      ],
      [
        "picture.csv",
        "text/csv",
        png,
        "This file is not text: it holds binary data (a spreadsheet or an archive, perhaps). Save it as CSV, JSONL or JSON, or choose a Parquet file.",
      ],
    ];

    it("says in the preview why each cannot be imported, and offers no import", async () => {
      const slug = await newDataset("Refused", [{ id: "x1", input: "kept" }]);
      await watched.page.goto(at(slug));
      await watched.page.getByRole("button", { name: "Import", exact: true }).first().click();
      for (const [name, type, content, message] of cases) {
        await chooseFile(name, type, content);
        const alert = dialog().getByRole("alert");
        await alert.waitFor();
        expect(await alert.textContent(), name).toBe(message);
        expect(
          await dialog()
            .getByText(/too large to preview/)
            .count(),
          name,
        ).toBe(0);
        expect(await dialog().getByRole("button", { name: "Import rows" }).isDisabled(), name).toBe(true);
        if (name === "picture.csv") {
          await expectAccessible(watched.page, "a file that is not text");
          await screenshot(watched.page, "import-binary-file");
        }
        await dialog().getByRole("button", { name: "Choose another file" }).click();
      }
      expect(await versionOf(slug)).toBe(1);
      expectNoProblems();
    });

    it("makes no version of a CSV that is a header alone", async () => {
      const slug = await newDataset("Header");
      const base = `${project}/datasets/${slug}`;
      const started = await api().post<{ importId: string }>(`${base}/imports`, "id,input,notes\n", {
        "content-type": "text/csv",
      });
      expect(started.status).toBe(202);
      let job: { state: string; versionId?: string | null; rowsInserted?: number } = { state: "receiving" };
      await expect
        .poll(async () => {
          job = (await api().get<typeof job>(`${base}/imports/${started.body.importId}`)).body;
          return job.state;
        })
        .toBe("succeeded");
      expect(job).toMatchObject({ versionId: null, rowsInserted: 0 });
      expect(await versionOf(slug)).toBe(0);
      const columns = await api().get<{ columns: { name: string }[] }>(`${base}/columns`);
      expect(columns.body.columns.map((column) => column.name)).not.toContain("notes");
    });
  });

  describe("an export imported back", () => {
    it("changes nothing when a JSONL export is imported back as an update", async () => {
      const slug = await newDataset("Round");
      const base = `${project}/datasets/${slug}`;
      const label = await api().post<{ identifier: string }>(`${base}/columns`, { name: "label" });
      const score = await api().post<{ identifier: string }>(`${base}/columns`, { name: "score" });
      const [l, s] = [label.body.identifier, score.body.identifier];
      const rows = [
        { id: "j1", input: { q: "2+2" }, output: "4", custom: { [l]: "math", [s]: 1 } },
        { id: "j2", input: "12", output: "", metadata: { n: null }, custom: { [l]: "", [s]: "0.50" } },
        { id: "j3", input: "line\nbreak", output: null, custom: {} },
      ];
      expect((await api().post(`${base}/rows`, { rows })).status).toBe(201);
      await watched.page.goto(at(slug));
      await watched.page.getByText("Export", { exact: true }).click();
      const [download] = await Promise.all([
        watched.page.waitForEvent("download"),
        watched.page.getByRole("link", { name: "JSONL", exact: true }).click(),
      ]);
      const file = await readFile((await download.path()) ?? "");
      expect(file.toString("utf8")).toContain('"custom":{');

      await watched.page.getByRole("button", { name: "Import", exact: true }).first().click();
      await chooseFile(download.suggestedFilename(), "application/x-ndjson", file);
      await dialog().getByRole("table", { name: "First rows of the file" }).waitFor();
      // The custom cells go back to their columns, not to a new column named "custom".
      expect(await dialog().getByLabel("custom", { exact: true }).inputValue()).toBe("cells");
      await dialog().getByText("Update existing rows", { exact: false }).click();
      await expectAccessible(watched.page, "an export's mapping back");
      await screenshot(watched.page, "import-jsonl-export-back");
      await dialog().getByRole("button", { name: "Update rows" }).click();
      await dialog()
        .getByText(/^Nothing changed/)
        .waitFor();
      expect(await versionOf(slug)).toBe(1);
      const columns = await api().get<{ columns: { name: string }[] }>(`${base}/columns`);
      expect(columns.body.columns.map((column) => column.name)).toEqual([
        "Input",
        "Output",
        "Expected output",
        "Metadata",
        "label",
        "score",
      ]);
      expectNoProblems();
    });
  });
});
