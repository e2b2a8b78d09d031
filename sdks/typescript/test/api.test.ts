import { randomBytes } from "node:crypto";
import type { Target } from "@svc/testing/platform";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LossyProxy } from "../../testing/lossy-proxy.js";
import { platforms } from "../../testing/platform.js";
import { Client, type Dataset, type DatasetColumn, type Project, SvcError } from "../src/index.js";

const unique = (prefix: string) => `${prefix} ${randomBytes(4).toString("hex")}`;

async function captureError(promise: Promise<unknown>): Promise<SvcError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof SvcError) return error;
    throw error;
  }
  throw new Error("the call succeeded but was expected to fail");
}

describe.each(platforms())("the TypeScript SDK against the %s platform", (_name, start) => {
  let platform: Target;
  let client: Client;

  beforeAll(async () => {
    platform = await start();
    client = new Client({ apiKey: platform.ownerKey, baseUrl: platform.baseUrl });
  });

  afterAll(async () => {
    await platform?.stop();
  });

  async function makeProject(): Promise<Project> {
    return client.projects.create({ name: unique("sdk project") });
  }

  async function makeDataset(options: { columns?: number } = {}): Promise<{
    project: Project;
    dataset: Dataset;
    columns: DatasetColumn[];
  }> {
    const project = await makeProject();
    const dataset = await client.datasets.create(project.slug, { name: unique("qa set") });
    const columns: DatasetColumn[] = [];
    for (let i = 0; i < (options.columns ?? 0); i++) {
      columns.push(await client.datasets.createColumn(project.slug, dataset.slug, { name: `custom ${i}` }));
    }
    return { project, dataset, columns };
  }

  describe("retries against the real gateway", () => {
    let proxy: LossyProxy;
    let lossy: Client;
    beforeAll(async () => {
      proxy = await LossyProxy.start(platform.baseUrl);
      lossy = new Client({ apiKey: platform.ownerKey, baseUrl: proxy.baseUrl });
    });
    afterAll(async () => {
      await proxy?.close();
    });

    /** The one key whose reply the proxy dropped during `call`, after checking it was sent again. */
    async function lostOnce<T>(call: () => Promise<T>): Promise<T> {
      const before = proxy.lost.length;
      const result = await call();
      expect(proxy.lost.slice(before)).toHaveLength(1);
      const key = proxy.lost[before] ?? "";
      expect(key).toMatch(/^svc_idem_[0-9a-f]{32}$/);
      // The retry carried the key of the first attempt, so the gateway answered it from the first.
      expect(proxy.seen.get(key)).toBe(2);
      return result;
    }

    it("inserts rows once when the first reply is lost and the SDK retries by itself", async () => {
      const { project, dataset } = await makeDataset();
      const inserted = await lostOnce(() =>
        lossy.datasets.insertRows(project.slug, dataset.slug, { rows: [{ input: "once" }] }),
      );
      expect(inserted.version).toBe(1);
      expect(inserted.rowIds).toHaveLength(1);
      // Rows without ids get new ones at each insert: a second application would show as a second row.
      const rows = await client.datasets.listRows(project.slug, dataset.slug);
      expect(rows.items.map((row) => row.rowId)).toEqual(inserted.rowIds);
      expect((await client.datasets.get(project.slug, dataset.slug)).version).toBe(1);
    });

    it("edits a row once: exactly one new version, though the edit reached the gateway twice", async () => {
      const { project, dataset } = await makeDataset();
      await client.datasets.insertRows(project.slug, dataset.slug, { rows: [{ id: "r", input: 0 }] });
      const edited = await lostOnce(() =>
        lossy.datasets.updateRow(project.slug, dataset.slug, "r", { input: 1 }),
      );
      expect(edited.version).toBe(2);
      const versions = await client.datasets.listVersions(project.slug, dataset.slug);
      expect(versions.items.map((version) => [version.version, version.operation])).toEqual([
        [2, "update"],
        [1, "insert"],
      ]);
      expect(versions.items[0]?.versionId).toBe(edited.versionId);
      expect((await client.datasets.getRow(project.slug, dataset.slug, "r")).input).toBe(1);
    });

    it("gives up with a connection_error when every reply is lost and retries are off", async () => {
      const { project, dataset } = await makeDataset();
      const error = await captureError(
        lossy.datasets.insertRows(project.slug, dataset.slug, { rows: [{ input: "x" }] }, { maxRetries: 0 }),
      );
      expect(error).toMatchObject({ status: 0, code: "connection_error" });
      // The gateway applied it all the same: the caller learns it should retry with the same key.
      expect((await client.datasets.get(project.slug, dataset.slug)).version).toBe(1);
    });
  });

  describe("every kind of call", () => {
    it("creates a project, a dataset, a custom column and rows", async () => {
      const { project, dataset, columns } = await makeDataset({ columns: 1 });
      expect(dataset).toMatchObject({ slug: expect.any(String), version: 0, projectId: project.id });
      const [difficulty] = columns;
      expect(difficulty).toMatchObject({ name: "custom 0", source: { kind: "custom" } });

      const inserted = await client.datasets.insertRows(project.slug, dataset.slug, {
        rows: [
          { id: "q-1", input: { question: "2+2?" }, expectedOutput: { answer: "5" } },
          { input: "hello", custom: { [difficulty?.identifier ?? ""]: "easy" } },
        ],
      });
      expect(inserted.version).toBe(1);
      expect(inserted.rowIds).toHaveLength(2);
      expect(inserted.rowIds[0]).toBe("q-1");

      const row = await client.datasets.getRow(project.slug, dataset.slug, "q-1");
      expect(row).toMatchObject({
        rowId: "q-1",
        input: { question: "2+2?" },
        expectedOutput: { answer: "5" },
      });

      const { columns: listed } = await client.datasets.listColumns(project.slug, dataset.slug);
      expect(listed.map((column) => column.identifier)).toEqual([
        "input",
        "output",
        "expectedOutput",
        "metadata",
        difficulty?.identifier,
      ]);
    });

    it("updateRow returns {versionId, version} and changes only the cells given", async () => {
      const { project, dataset, columns } = await makeDataset({ columns: 2 });
      const [first, second] = columns.map((column) => column.identifier);
      if (!first || !second) throw new Error("columns missing");
      await client.datasets.insertRows(project.slug, dataset.slug, {
        rows: [{ id: "r1", input: "q", output: "o", custom: { [first]: "a", [second]: "b" } }],
      });

      const result = await client.datasets.updateRow(project.slug, dataset.slug, "r1", {
        expectedOutput: { answer: "4" },
        custom: { [first]: "easy" },
      });
      expect(Object.keys(result).sort()).toEqual(["version", "versionId"]);
      expect(result.version).toBe(2);
      expect(result.versionId).toMatch(/^[a-z0-9]{24}$/);

      const cleared = await client.datasets.updateRow(project.slug, dataset.slug, "r1", { output: null });
      expect(cleared.version).toBe(3);

      const row = await client.datasets.getRow(project.slug, dataset.slug, "r1");
      expect(row).toMatchObject({
        input: "q",
        output: null,
        expectedOutput: { answer: "4" },
        custom: { [first]: "easy", [second]: "b" },
        version: 3,
      });
      const version = await client.datasets.getVersion(project.slug, dataset.slug, 2);
      expect(version).toMatchObject({
        version: 2,
        versionId: result.versionId,
        operation: "update",
        rowsUpdated: 1,
      });
    });

    it("iterates over 120 rows in pages of 50, each row once", async () => {
      const { project, dataset } = await makeDataset();
      const rows = Array.from({ length: 120 }, (_, i) => ({
        id: `row-${String(i).padStart(3, "0")}`,
        input: i,
      }));
      await client.datasets.insertRows(project.slug, dataset.slug, { rows });

      const pages: string[] = [];
      const counting = new Client({
        apiKey: platform.ownerKey,
        baseUrl: platform.baseUrl,
        fetch: (url, init) => {
          pages.push(url);
          return fetch(url, init);
        },
      });
      const seen: string[] = [];
      for await (const row of counting.datasets.iterateRows(project.slug, dataset.slug, { limit: 50 })) {
        seen.push(row.rowId);
      }
      expect(seen).toHaveLength(120);
      expect(new Set(seen).size).toBe(120);
      expect(new Set(seen)).toEqual(new Set(rows.map((row) => row.id)));
      expect(pages).toHaveLength(3);
      expect(pages[0]).toContain("limit=50");
      expect(pages[0]).not.toContain("cursor=");
      expect(pages[1]).toContain("cursor=");

      const firstPage = await client.datasets.listRows(project.slug, dataset.slug, {
        limit: 50,
        sortDirection: "asc",
      });
      expect(firstPage.items).toHaveLength(50);
      expect(firstPage.hasMore).toBe(true);
      expect(firstPage.nextCursor).toEqual(expect.any(String));
    });

    it("iterates over versions, row history and projects", async () => {
      const { project, dataset } = await makeDataset();
      await client.datasets.insertRows(project.slug, dataset.slug, { rows: [{ id: "h", input: 1 }] });
      await client.datasets.updateRow(project.slug, dataset.slug, "h", { input: 2 });
      await client.datasets.updateRow(project.slug, dataset.slug, "h", { input: 3 });

      const versions = [];
      for await (const version of client.datasets.iterateVersions(project.slug, dataset.slug, { limit: 1 })) {
        versions.push(version.version);
      }
      expect(versions).toEqual([3, 2, 1]);

      const history = [];
      for await (const entry of client.datasets.iterateRowHistory(project.slug, dataset.slug, "h", {
        limit: 2,
      })) {
        history.push(entry.cells?.input);
      }
      expect(history).toEqual([3, 2, 1]);

      const slugs = [];
      for await (const item of client.projects.iterate({ limit: 1 })) slugs.push(item.slug);
      expect(slugs).toContain(project.slug);
    });

    it("throws SvcError with the API's status, code, message and request id on a 404", async () => {
      const { project } = await makeDataset();
      const error = await captureError(
        client.datasets.get(project.slug, "no-such-dataset", { requestId: "req-sdk-404" }),
      );
      expect(error).toBeInstanceOf(SvcError);
      expect(error.status).toBe(404);
      expect(error.code).toBe("not_found");
      expect(error.message).toMatch(/not found/i);
      expect(error.requestId).toBe("req-sdk-404");
    });

    it("throws SvcError 400 unknown_column with details, and changes nothing", async () => {
      const { project, dataset } = await makeDataset();
      await client.datasets.insertRows(project.slug, dataset.slug, { rows: [{ id: "r", input: "x" }] });
      const error = await captureError(
        client.datasets.updateRow(project.slug, dataset.slug, "r", { input: "y", custom: { nope: 1 } }),
      );
      expect(error.status).toBe(400);
      expect(error.code).toBe("unknown_column");
      expect(error.message).toContain('"nope"');
      expect(error.requestId).toEqual(expect.any(String));
      expect(error.details).toEqual({ column: "nope" });
      expect((await client.datasets.getRow(project.slug, dataset.slug, "r")).input).toBe("x");
    });

    it("sends If-Match from the ifMatch option and reports a version_mismatch", async () => {
      const { project, dataset } = await makeDataset();
      await client.datasets.insertRows(project.slug, dataset.slug, { rows: [{ id: "r", input: "x" }] });
      const ok = await client.datasets.updateRow(
        project.slug,
        dataset.slug,
        "r",
        { input: "y" },
        { ifMatch: 1 },
      );
      expect(ok.version).toBe(2);
      const error = await captureError(
        client.datasets.updateRow(project.slug, dataset.slug, "r", { input: "z" }, { ifMatch: 1 }),
      );
      expect(error.status).toBe(412);
      expect(error.code).toBe("version_mismatch");
    });

    it("applies a write once when it is sent twice with the same idempotency key", async () => {
      const { project, dataset } = await makeDataset();
      await client.datasets.insertRows(project.slug, dataset.slug, { rows: [{ id: "r", input: 0 }] });
      const idempotencyKey = `sdk-test-${randomBytes(8).toString("hex")}`;
      const first = await client.datasets.updateRow(
        project.slug,
        dataset.slug,
        "r",
        { input: 1 },
        { idempotencyKey },
      );
      const again = await client.datasets.updateRow(
        project.slug,
        dataset.slug,
        "r",
        { input: 1 },
        { idempotencyKey },
      );
      expect(again).toEqual(first);
      expect((await client.datasets.get(project.slug, dataset.slug)).version).toBe(2);
      const reused = await captureError(
        client.datasets.updateRow(project.slug, dataset.slug, "r", { input: 2 }, { idempotencyKey }),
      );
      expect(reused.status).toBe(409);
      expect(reused.code).toBe("idempotency_key_reused");
    });

    it("deletes rows, columns and datasets", async () => {
      const { project, dataset, columns } = await makeDataset({ columns: 1 });
      await client.datasets.insertRows(project.slug, dataset.slug, {
        rows: [
          { id: "a", input: 1 },
          { id: "b", input: 2 },
        ],
      });
      const deleted = await client.datasets.deleteRows(project.slug, dataset.slug, {
        selection: { mode: "selected", rowIds: ["a"] },
      });
      expect(deleted).toMatchObject({ version: 2, deletedCount: 1, versionId: expect.any(String) });
      await expect(
        client.datasets.deleteColumn(project.slug, dataset.slug, columns[0]?.identifier ?? ""),
      ).resolves.toBeUndefined();
      const { columns: withRemoved } = await client.datasets.listColumns(project.slug, dataset.slug, {
        includeRemoved: true,
      });
      expect(withRemoved.find((column) => column.identifier === columns[0]?.identifier)?.removed).toBe(true);
      await expect(client.datasets.delete(project.slug, dataset.slug)).resolves.toBeUndefined();
      expect((await captureError(client.datasets.get(project.slug, dataset.slug))).status).toBe(404);
    });

    it("manages API keys, and sends per-call headers such as the operator token", async () => {
      const created = await client.apiKeys.create({ name: unique("ci key"), role: "viewer" });
      // A first answer has the token; only a replay of its request comes without it.
      expect(created).toMatchObject({ token: expect.stringMatching(/^svc_/), tokenAlreadyShown: false });
      const viewer = new Client({ apiKey: created.token ?? undefined, baseUrl: platform.baseUrl });
      expect((await viewer.account.get()).role).toBe("viewer");
      expect((await captureError(viewer.projects.create({ name: unique("denied") }))).code).toBe("forbidden");
      await client.apiKeys.delete(created.id);
      expect((await captureError(viewer.account.get())).status).toBe(401);

      const organization = await client.organizations.create(
        { name: unique("org") },
        { headers: { authorization: `Bearer ${platform.adminToken}` } },
      );
      expect(organization.apiKey.token).toMatch(/^svc_/);
      const other = new Client({ apiKey: organization.apiKey.token ?? undefined, baseUrl: platform.baseUrl });
      expect((await other.account.get()).organization.id).toBe(organization.organization.id);
    });

    it("renames and deletes a project, keeping its slug", async () => {
      const project = await makeProject();
      const renamed = await client.projects.update(project.slug, { name: unique("renamed") });
      expect(renamed).toMatchObject({ id: project.id, slug: project.slug });
      expect(renamed.name).not.toBe(project.name);
      await expect(client.projects.delete(project.slug)).resolves.toBeUndefined();
      expect((await captureError(client.projects.get(project.slug))).code).toBe("not_found");
    });

    it("adds, lists, changes and removes members", async () => {
      const email = `${randomBytes(4).toString("hex")}@example.com`;
      const member = await client.members.add({ email, role: "viewer" });
      expect(member).toMatchObject({ email, role: "viewer" });
      const emails = [];
      for await (const listed of client.members.iterate({ limit: 1 })) emails.push(listed.email);
      expect(emails).toContain(email);
      expect((await client.members.update(member.id, { role: "admin" })).role).toBe("admin");
      await client.members.remove(member.id);
      const { items } = await client.members.list({ limit: 200 });
      expect(items.map((listed) => listed.id)).not.toContain(member.id);
    });

    it("reads SVC_API_KEY and SVC_BASE_URL when they are not given", async () => {
      const saved = { key: process.env.SVC_API_KEY, url: process.env.SVC_BASE_URL };
      process.env.SVC_API_KEY = platform.ownerKey;
      process.env.SVC_BASE_URL = `${platform.baseUrl}/`;
      try {
        const fromEnv = new Client();
        expect(fromEnv.baseUrl).toBe(platform.baseUrl);
        expect((await fromEnv.account.get()).role).toBe("owner");
        const explicit = new Client({
          apiKey: "svc_wrong_key_for_this_test_000000",
          baseUrl: platform.baseUrl,
        });
        expect((await captureError(explicit.account.get())).status).toBe(401);
      } finally {
        restoreEnv("SVC_API_KEY", saved.key);
        restoreEnv("SVC_BASE_URL", saved.url);
      }
    });

    it("falls back to http://127.0.0.1:8080 when neither option nor variable is set", () => {
      const saved = process.env.SVC_BASE_URL;
      delete process.env.SVC_BASE_URL;
      try {
        expect(new Client().baseUrl).toBe("http://127.0.0.1:8080");
      } finally {
        restoreEnv("SVC_BASE_URL", saved);
      }
    });
  });

  describe("files", () => {
    it("imports a CSV from a named Blob, with a map and its progress, then exports it back", async () => {
      const { project, dataset } = await makeDataset();
      const csv = 'key,question,answer\nq1,"2+2, then?",4\nq2,"line one\nline two",""\n';
      const seen: string[] = [];
      const done = await client.datasets.importFile(
        project.slug,
        dataset.slug,
        new File([csv], "golden.csv", { type: "text/csv" }),
        {
          map: { question: "input", answer: "expectedOutput" },
          idField: "key",
          pollIntervalMs: 50,
          onProgress: (job) => seen.push(job.state),
        },
      );
      expect(done).toMatchObject({ state: "succeeded", format: "csv", mode: "insert", rowsInserted: 2 });
      expect(seen.at(-1)).toBe("succeeded");
      const rows = await client.datasets.listRows(project.slug, dataset.slug, { sortDirection: "asc" });
      expect(rows.items.map((row) => [row.rowId, row.input, row.expectedOutput])).toEqual([
        ["q1", "2+2, then?", 4],
        ["q2", "line one\nline two", null],
      ]);

      const exported = await client.datasets.exportFile(project.slug, dataset.slug, { format: "jsonl" });
      expect(exported.headers.get("content-type")).toMatch(/ndjson/);
      const lines = (await exported.text())
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line));
      expect(lines.map((line) => [line.rowId, line.expectedOutput])).toEqual([
        ["q1", 4],
        ["q2", null],
      ]);
      // The same file, as an update: nothing differs, so no version.
      const csvExport = await client.datasets.exportFile(project.slug, dataset.slug, { format: "csv" });
      const again = await client.datasets.importFile(project.slug, dataset.slug, await csvExport.text(), {
        format: "csv",
        mode: "update",
        pollIntervalMs: 50,
      });
      expect(again).toMatchObject({ state: "succeeded", versionId: null, version: done.version });
      // So does the Parquet export.
      const parquet = await client.datasets.exportFile(project.slug, dataset.slug, { format: "parquet" });
      expect(parquet.headers.get("content-type")).toBe("application/vnd.apache.parquet");
      const bytes = new Uint8Array(await parquet.arrayBuffer());
      expect(new TextDecoder().decode(bytes.subarray(0, 4))).toBe("PAR1");
      const same = await client.datasets.importFile(project.slug, dataset.slug, bytes, {
        format: "parquet",
        mode: "update",
        pollIntervalMs: 50,
      });
      expect(same).toMatchObject({ state: "succeeded", versionId: null, version: done.version });
    });

    it("streams JSONL from an async iterable, and throws a bad line's number with nothing written", async () => {
      const { project, dataset } = await makeDataset();
      async function* lines() {
        for (let i = 0; i < 500; i++) yield new TextEncoder().encode(`${JSON.stringify({ input: i })}\n`);
      }
      const done = await client.datasets.importFile(project.slug, dataset.slug, lines(), {
        format: "jsonl",
        pollIntervalMs: 50,
      });
      expect(done.rowsInserted).toBe(500);

      const error = await captureError(
        client.datasets.importFile(project.slug, dataset.slug, '{"input": 1}\n{"input": \n', {
          format: "jsonl",
          pollIntervalMs: 50,
        }),
      );
      expect(error.code).toBe("validation_failed");
      expect(error.details).toMatchObject({ line: 2, importId: expect.any(String) });
      expect(error.message).toMatch(/^Line 2: /);
      expect((await client.datasets.get(project.slug, dataset.slug)).version).toBe(done.version);
      // Without a name or a format, the SDK cannot tell what the file is.
      await expect(client.datasets.importFile(project.slug, dataset.slug, "a,b\n")).rejects.toThrow(
        /needs options.format/,
      );
    });
  });
});

function restoreEnv(name: string, value: string | undefined): void {
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
}
