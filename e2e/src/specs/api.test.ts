import { beforeAll, describe, expect, it } from "vitest";
import { type Dataset, type ErrorBody, expectError, makeDataset } from "../factories";
import { client } from "../http";
import { projectForSuite, targets } from "../targets";

describe.each(targets())("HTTP API (%s)", (_name, start) => {
  const suite = projectForSuite(start);

  /** A dataset with one custom column and rows r0…r{rows-1}. */
  async function datasetWithColumn(rows = 1) {
    const made = await makeDataset(suite.api, suite.project, { rows, columns: 1 });
    return { ...made, column: made.columns[0] as string };
  }

  it("serves health and readiness", async () => {
    expect((await fetch(`${suite.target.baseUrl}/healthz`)).status).toBe(200);
    const ready = await fetch(`${suite.target.baseUrl}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ status: "ready" });
  });

  it("walks the curator's path: dataset, column, rows, edit, list", async () => {
    const { base, column } = await datasetWithColumn(2);
    const edit = await suite.api.patch<{ versionId: string; version: number }>(`${base}/rows/r0`, {
      expectedOutput: { answer: "4" },
      custom: { [column]: "easy" },
    });
    expect(edit.status).toBe(200);
    expect(edit.body.version).toBe(2);
    expect(edit.body.versionId).toMatch(/^[a-z0-9]{24}$/);
    const row = await suite.api.get<Record<string, unknown>>(`${base}/rows/r0`);
    expect(row.body).toMatchObject({
      rowId: "r0",
      input: { q: 0 },
      output: "a0",
      expectedOutput: { answer: "4" },
      metadata: null,
      custom: { [column]: "easy" },
      version: 2,
    });
    const list = await suite.api.get<{
      items: { rowId: string }[];
      hasMore: boolean;
      nextCursor: string | null;
    }>(`${base}/rows?limit=1&sortDirection=asc`);
    expect(list.status).toBe(200);
    expect(list.body.items.map((r) => r.rowId)).toEqual(["r0"]);
    expect(list.body.hasMore).toBe(true);
    const next = await suite.api.get<{ items: { rowId: string }[]; hasMore: boolean }>(
      `${base}/rows?limit=1&sortDirection=asc&cursor=${encodeURIComponent(list.body.nextCursor ?? "")}`,
    );
    expect(next.body.items.map((r) => r.rowId)).toEqual(["r1"]);
    expect(next.body.hasMore).toBe(false);
    const old = await suite.api.get<Record<string, unknown>>(`${base}/rows/r0?version=1`);
    expect(old.body).toMatchObject({ expectedOutput: null, custom: {}, version: 1 });
  });

  it("answers every response with X-Request-Id, echoing a client's own", async () => {
    const mine = await suite.api.get("/v1/account", { "x-request-id": "my-request-42" });
    expect(mine.headers.get("x-request-id")).toBe("my-request-42");
    const generated = await suite.api.get("/v1/nothing-here");
    expect(generated.status).toBe(404);
    expect(generated.headers.get("x-request-id")).toBe((generated.body as ErrorBody).requestId);
  });

  it("returns 412 version_mismatch for a stale If-Match, with the current version", async () => {
    const { base } = await datasetWithColumn();
    const stale = await suite.api.patch<ErrorBody>(`${base}/rows/r0`, { output: "x" }, { "if-match": '"5"' });
    expect(stale.status).toBe(412);
    expect(stale.body).toMatchObject({ code: "version_mismatch", details: { currentVersion: 1 } });
    const fresh = await suite.api.patch(`${base}/rows/r0`, { output: "x" }, { "if-match": "1" });
    expect(fresh.status).toBe(200);
  });

  it("compares If-Match with the row's version, and 412 carries the row's version, not the dataset's", async () => {
    const { base } = await datasetWithColumn(2);
    expect((await suite.api.patch(`${base}/rows/r1`, { output: "moved on" })).status).toBe(200);
    // The dataset is at version 2; r0 last changed at version 1.
    expect((await suite.api.get<Dataset>(base)).body.version).toBe(2);
    const stale = await suite.api.patch<ErrorBody>(`${base}/rows/r0`, { output: "x" }, { "if-match": "2" });
    expect(stale.status).toBe(412);
    expect(stale.body).toMatchObject({
      code: "version_mismatch",
      details: { currentVersion: 1, expectedVersion: 2 },
    });
    expect((await suite.api.get<{ output: unknown; version: number }>(`${base}/rows/r0`)).body).toMatchObject(
      {
        output: "a0",
        version: 1,
      },
    );
    const fresh = await suite.api.patch<{ version: number }>(
      `${base}/rows/r0`,
      { output: "x" },
      { "if-match": "1" },
    );
    expect(fresh.status).toBe(200);
    expect(fresh.body.version).toBe(3);
  });

  it("edits many rows as one version with PATCH /rows, shown in each row's history", async () => {
    const { base, column } = await datasetWithColumn(3);
    const batch = await suite.api.patch<{ versionId: string; version: number; rowsUpdated: number }>(
      `${base}/rows`,
      {
        edits: [
          { rowId: "r0", expectedOutput: "a0" },
          { rowId: "r2", ifMatch: 1, custom: { [column]: "hard" } },
        ],
      },
    );
    expect(batch.status).toBe(200);
    expect(batch.body).toMatchObject({ version: 2, rowsUpdated: 2 });
    const version = await suite.api.get<Record<string, unknown>>(`${base}/versions/2`);
    expect(version.body).toMatchObject({ operation: "update", rowsUpdated: 2 });
    const history = await suite.api.get<{ items: { version: number }[] }>(`${base}/rows/r2/history`);
    expect(history.body.items.map((entry) => entry.version)).toEqual([2, 1]);
    const diff = await suite.api.get<{ items: { rowId: string; change: string }[] }>(
      `${base}/diff?from=1&to=2`,
    );
    expect(diff.body.items.map((entry) => [entry.rowId, entry.change]).sort()).toEqual([
      ["r0", "modified"],
      ["r2", "modified"],
    ]);

    const again = await suite.api.patch(`${base}/rows`, { edits: [{ rowId: "r0", expectedOutput: "a0" }] });
    expect(again.body).toEqual({ versionId: null, version: 2, rowsUpdated: 0 });

    const stale = await suite.api.patch<ErrorBody>(`${base}/rows`, {
      edits: [
        { rowId: "r1", output: "never" },
        { rowId: "r2", ifMatch: 1, output: "never" },
      ],
    });
    expect(stale.status).toBe(412);
    expect(stale.body).toMatchObject({
      code: "version_mismatch",
      details: { index: 1, rowId: "r2", currentVersion: 2 },
    });
    const tooMany = await suite.api.patch<ErrorBody>(`${base}/rows`, {
      edits: Array.from({ length: 1001 }, (_, i) => ({ rowId: `r${i}`, output: "x" })),
    });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error).toMatch(/at most 1000 edits/);
    expect((await suite.api.get<{ output: unknown }>(`${base}/rows/r1`)).body.output).toBe("a1");
    expect((await suite.api.get<Dataset>(base)).body.version).toBe(2);
  });

  it("copies the rows still missing an expected output into another dataset, noting where each came from", async () => {
    const source = await datasetWithColumn(3);
    await suite.api.patch(`${source.base}/rows`, {
      edits: [{ rowId: "r1", expectedOutput: "a1", custom: { [source.column]: "easy" } }],
    });
    const target = await datasetWithColumn(0);
    const copied = await suite.api.post<{
      versionId: string;
      version: number;
      rowsCopied: number;
      rowIds: string[];
    }>(`${source.base}/rows/copy`, {
      to: { datasetSlug: target.dataset.slug },
      selection: { mode: "filter", missing: ["expectedOutput"] },
    });
    expect(copied.status).toBe(201);
    expect(copied.body).toMatchObject({ version: 1, rowsCopied: 2 });
    const rows = await suite.api.get<{
      items: { rowId: string; input: unknown; metadata: { copiedFrom: Record<string, unknown> } }[];
    }>(`${target.base}/rows?sortDirection=asc`);
    expect(rows.body.items.map((row) => row.input)).toEqual([{ q: 0 }, { q: 2 }]);
    expect(rows.body.items.map((row) => row.rowId)).toEqual(copied.body.rowIds);
    expect(rows.body.items[0]?.metadata.copiedFrom).toEqual({
      projectSlug: suite.project,
      datasetSlug: source.dataset.slug,
      datasetId: source.dataset.id,
      rowId: "r0",
      version: 2,
    });
    const unknown = await suite.api.post<ErrorBody>(`${source.base}/rows/copy`, {
      to: { datasetSlug: target.dataset.slug },
      selection: { mode: "selected", rowIds: ["r0", "ghost"] },
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toMatch(/ghost/);
  });

  it("counts the rows a filter lets through, at the current version and an old one, and after each edit", async () => {
    const { base } = await datasetWithColumn(5);
    type Count = { count: number; version: number };
    const count = async (query: string) => {
      const response = await suite.api.get<Count>(`${base}/row-count${query}`);
      expect(response.status).toBe(200);
      return response.body;
    };
    expect(await count("")).toEqual({ count: 5, version: 1 });
    expect(await count("?missing=expectedOutput")).toEqual({ count: 5, version: 1 });
    await suite.api.patch(`${base}/rows`, {
      edits: [
        { rowId: "r1", expectedOutput: "a1" },
        { rowId: "r3", expectedOutput: "a3" },
      ],
    });
    expect(await count("?missing=expectedOutput")).toEqual({ count: 3, version: 2 });
    expect(await count("?present=expectedOutput&search=a3")).toEqual({ count: 1, version: 2 });
    await suite.api.delete(`${base}/rows`, { selection: { mode: "selected", rowIds: ["r0", "r1"] } });
    expect(await count("?missing=expectedOutput")).toEqual({ count: 2, version: 3 });
    expect(await count("?missing=expectedOutput&version=1")).toEqual({ count: 5, version: 1 });
    expect(await count('?where=expectedOutput="a3"')).toEqual({ count: 1, version: 3 });
    expect(await count("?version=2")).toEqual({ count: 5, version: 2 });

    const unknown = await suite.api.get<ErrorBody>(`${base}/row-count?missing=nope`);
    expectError(unknown, 400, "unknown_column");
    expect(unknown.body.error).toContain('"nope"');
    expectError(await suite.api.get<ErrorBody>(`${base}/row-count?version=9`), 404, "not_found");
    const paged = await suite.api.get<ErrorBody>(`${base}/row-count?limit=10`);
    expectError(paged, 400, "validation_failed");
  });

  describe("bad input", () => {
    let base: string;
    beforeAll(async () => {
      base = (await datasetWithColumn()).base;
    });

    it.each([
      ["malformed JSON", "{not json"],
      ["a body that is not an object", "[1,2,3]"],
      ["a JSON string", '"text"'],
      ["an empty edit {}", "{}"],
      ["an unknown top-level field", '{"output":1,"colour":"red"}'],
      ["a wrong type for custom", '{"custom":"x"}'],
      ["an edit naming no cell", '{"custom":{}}'],
      ["a cell holding U+0000, which PostgreSQL cannot store", '{"output":"a\\u0000b"}'],
    ])("refuses %s on the row edit with 400 validation_failed", async (_label, raw) => {
      await expectError(suite.api.patch(`${base}/rows/r0`, raw), 400, "validation_failed");
      const row = await suite.api.get<{ version: number }>(`${base}/rows/r0`);
      expect(row.body.version).toBe(1);
    });

    it("lists each problem with its path in details.issues", async () => {
      const error = await expectError(
        suite.api.patch(`${base}/rows/r0`, { colour: 1, custom: 5 }),
        400,
        "validation_failed",
      );
      const paths = ((error.details?.issues ?? []) as { path: string }[]).map((i) => i.path);
      expect(paths).toEqual(expect.arrayContaining(["body.custom"]));
    });

    it("refuses an unknown custom column with 400 unknown_column and a message naming it", async () => {
      const error = await expectError(
        suite.api.patch(`${base}/rows/r0`, { custom: { k3vnotacolumn: 1 } }),
        400,
        "unknown_column",
      );
      expect(error.error).toContain('"k3vnotacolumn"');
    });

    it.each(["a%20b", "x".repeat(129), "semi;colon"])("refuses the row id %s", async (rowId) => {
      await expectError(suite.api.patch(`${base}/rows/${rowId}`, { output: 1 }), 400, "validation_failed");
    });

    it.each(["0", "201", "abc", "1.5"])("refuses limit=%s", async (limit) => {
      await expectError(suite.api.get(`${base}/rows?limit=${limit}`), 400, "validation_failed");
    });

    it("refuses an empty If-Match instead of reading it as version 0", async () => {
      const error = await expectError(
        suite.api.patch(`${base}/rows/r0`, { output: "x" }, { "if-match": "" }),
        400,
        "validation_failed",
      );
      expect(error.details?.issues).toEqual([expect.objectContaining({ path: "header.If-Match" })]);
      expect((await suite.api.get<{ version: number }>(`${base}/rows/r0`)).body.version).toBe(1);
    });

    // Each of these was once read as 0 (or a number it does not spell) instead of being refused.
    it.each([
      ["rows?version=", "query.version"],
      ["rows?version=0x1", "query.version"],
      ["rows/r0?version=", "query.version"],
      ["rows?limit=", "query.limit"],
      ["rows?limit=1e1", "query.limit"],
      ["rows?sortDirection=", "query.sortDirection"],
      ["diff?from=&to=1", "query.from"],
      ["diff?from=0&to=", "query.to"],
      ["versions?limit=%20", "query.limit"],
    ])("refuses the empty or malformed query parameter in %s", async (path, issuePath) => {
      const error = await expectError(suite.api.get(`${base}/${path}`), 400, "validation_failed");
      expect(error.details?.issues).toEqual([expect.objectContaining({ path: issuePath })]);
    });

    it("refuses a garbage cursor", async () => {
      await expectError(suite.api.get(`${base}/rows?cursor=garbage!!`), 400, "validation_failed");
    });

    it("refuses an unknown query parameter", async () => {
      await expectError(suite.api.get(`${base}/rows?colour=red`), 400, "validation_failed");
    });

    it("answers 404 for a version that does not exist", async () => {
      await expectError(suite.api.get(`${base}/rows?version=999`), 404, "not_found");
      await expectError(suite.api.get(`${base}/versions/999`), 404, "not_found");
    });

    it("answers 401 without a key, with a malformed header, and with an unknown key", async () => {
      const anonymous = await fetch(`${suite.target.baseUrl}/v1/projects`);
      expect(anonymous.status).toBe(401);
      expect(await anonymous.json()).toMatchObject({ code: "unauthenticated" });
      const malformed = await fetch(`${suite.target.baseUrl}/v1/projects`, {
        headers: { authorization: "Basic abc" },
      });
      expect(malformed.status).toBe(401);
      await expectError(
        client(suite.target.baseUrl, "svc_unknownkeyunknownkey").get("/v1/projects"),
        401,
        "unauthenticated",
      );
    });

    it("refuses a revoked key", async () => {
      const key = await suite.api.post<{ id: string; token: string }>("/v1/api-keys", {
        name: "short-lived",
        role: "member",
      });
      expect(key.status).toBe(201);
      const holder = client(suite.target.baseUrl, key.body.token);
      expect((await holder.get("/v1/projects")).status).toBe(200);
      expect((await suite.api.delete(`/v1/api-keys/${key.body.id}`)).status).toBe(204);
      await expectError(holder.get("/v1/projects"), 401, "unauthenticated");
    });

    it("forbids a viewer key from writing, and lets it read", async () => {
      const key = await suite.api.post<{ token: string }>("/v1/api-keys", { name: "reader", role: "viewer" });
      const viewer = client(suite.target.baseUrl, key.body.token);
      expect((await viewer.get(`${base}/rows`)).status).toBe(200);
      await expectError(viewer.patch(`${base}/rows/r0`, { output: 1 }), 403, "forbidden");
      await expectError(viewer.post("/v1/projects", { name: "nope" }), 403, "forbidden");
    });

    it("answers 413 for a body over the limit and 415 for a body that is not JSON", async () => {
      const big = JSON.stringify({ output: "x".repeat(1024 * 1024 + 10) });
      await expectError(suite.api.patch(`${base}/rows/r0`, big), 413, "payload_too_large");
      const text = await fetch(`${suite.target.baseUrl}${base}/rows/r0`, {
        method: "PATCH",
        headers: { authorization: `Bearer ${suite.target.ownerKey}`, "content-type": "text/plain" },
        body: "output=1",
      });
      expect(text.status).toBe(415);
      expect(await text.json()).toMatchObject({ code: "unsupported_media_type" });
    });

    it("hides another organisation's project, dataset and row behind 404", async () => {
      const stranger = client(suite.target.baseUrl, await suite.target.newOrganizationKey());
      await expectError(stranger.get(`/v1/projects/${suite.project}`), 404, "not_found");
      await expectError(stranger.get(base), 404, "not_found");
      await expectError(stranger.get(`${base}/rows/r0`), 404, "not_found");
      await expectError(stranger.patch(`${base}/rows/r0`, { output: 1 }), 404, "not_found");
    });
  });
});
